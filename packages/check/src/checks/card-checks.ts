import { verifyAgentCard } from '@a2a/core';
import { AgentCardSchema } from '@a2a/core/schemas';
import { type Check, fail, pass, skip } from '../check.js';
import { majorMinor } from '../context.js';
import { LEGACY_PATH, WELL_KNOWN_PATH } from '../discover.js';
import { NoAnswer } from '../http.js';
import { rest, rpc, unknownTaskId } from './calls.js';
import { described, rpcEnvelope } from './expect-error.js';
import { grpcServes } from './grpc-checks.js';

const MAX_JWKS_BYTES = 64 * 1024;

/** The agent card: where it is, its schema, its interfaces, versions, signatures and caching headers. */
export const CARD_CHECKS: Check[] = [
  {
    id: 'card.well-known',
    area: 'card',
    level: 'MAY',
    spec: '§8.2 Discovery Mechanisms',
    title: `the card is served at the origin's ${WELL_KNOWN_PATH}`,
    async run(ctx) {
      const url = new URL(WELL_KNOWN_PATH, ctx.origin).href;
      const answer = url === ctx.cardUrl ? ctx.cardAnswer : await ctx.call(url, { anonymous: true });
      const legacy = await ctx.call(new URL(LEGACY_PATH, ctx.origin).href, { anonymous: true, maxBytes: 1024 * 1024 });
      const note = `legacy ${LEGACY_PATH} (v0.2 clients): ${legacy.status === 200 ? 'served' : `not served (${legacy.status})`}`;
      return answer.status === 200 ? pass(note) : fail(`${url} answered ${answer.status}; ${note}`);
    },
  },
  {
    id: 'card.schema',
    area: 'card',
    level: 'MUST',
    spec: '§4.4.1 AgentCard, §8.3',
    title: 'the card is a valid v1.0 AgentCard',
    async run(ctx) {
      const parsed = AgentCardSchema.safeParse(ctx.card);
      if (parsed.success) return pass();
      const issues = parsed.error.issues
        .slice(0, 5)
        .map((i) => `${i.path.map(String).join('.') || '(card)'}: ${i.message}`);
      const more = parsed.error.issues.length > 5 ? ` (and ${parsed.error.issues.length - 5} more)` : '';
      return fail(issues.join('; ') + more);
    },
  },
  {
    id: 'card.protocol-versions',
    area: 'card',
    level: 'SHOULD',
    spec: '§3.6 Versioning',
    title: 'every interface names its protocol version as Major.Minor',
    async run(ctx) {
      if (ctx.interfaces.length === 0) return skip('no well-formed interface in supportedInterfaces');
      const bad = ctx.interfaces.filter((i) => !/^\d+\.\d+$/.test(i.protocolVersion));
      if (bad.length)
        return fail(bad.map((i) => `${i.url} (${i.protocolBinding}) declares "${i.protocolVersion}"`).join('; '));
      const versions = [...new Set(ctx.interfaces.map((i) => majorMinor(i.protocolVersion)))];
      return pass(`declared: ${versions.join(', ')}`);
    },
  },
  {
    id: 'card.interfaces-reachable',
    area: 'card',
    level: 'MUST',
    spec: '§8.3.1 Supported Interfaces Declaration',
    title: 'every declared interface answers in the binding it declares',
    async run(ctx) {
      if (ctx.interfaces.length === 0)
        return fail('supportedInterfaces names no interface with a url and protocolBinding');
      const problems: string[] = [];
      const notes: string[] = [];
      for (const iface of ctx.interfaces) {
        const binding = iface.protocolBinding.toUpperCase();
        const version = iface.protocolVersion || null;
        const where = `${binding} ${iface.url}`;
        try {
          if (binding === 'JSONRPC') {
            const method = majorMinor(iface.protocolVersion) === '0.3' ? 'tasks/get' : 'GetTask';
            const answer = await rpc(ctx, iface, method, { id: unknownTaskId() }, { version });
            const envelope = rpcEnvelope(answer) as { jsonrpc?: unknown } | undefined;
            if (envelope?.jsonrpc !== '2.0') problems.push(`${where}: not a JSON-RPC answer (${described(answer)})`);
          } else if (binding === 'HTTP+JSON') {
            const answer = await rest(ctx, iface, 'GET', `/tasks/${unknownTaskId()}`, undefined, { version });
            if (answer.json === undefined || answer.status >= 500)
              problems.push(`${where}: not an HTTP+JSON answer (${described(answer)})`);
          } else if (binding === 'GRPC') {
            if (majorMinor(iface.protocolVersion) !== '1.0')
              notes.push(`${where} not checked (gRPC ${iface.protocolVersion}: only v1.0's lf.a2a.v1.A2AService is)`);
            else {
              const problem = await grpcServes(ctx, iface, version);
              if (problem) problems.push(`${where}: ${problem}`);
            }
          } else {
            notes.push(`${where} not checked (no ${binding} checks)`);
          }
        } catch (error) {
          if (!(error instanceof NoAnswer)) throw error;
          problems.push(`${where}: ${error.message}`);
        }
      }
      return problems.length
        ? fail(problems.join('; '))
        : pass(notes.join('; ') || `${ctx.interfaces.length} answered`);
    },
  },
  {
    id: 'card.signature',
    area: 'card',
    level: 'MUST',
    spec: '§8.4.3 Signature Verification',
    title: "a signed card verifies against the keys of its signature's jku",
    async run(ctx) {
      const signatures = ctx.card.signatures;
      if (!Array.isArray(signatures) || signatures.length === 0) return skip('the card is not signed');
      const jku = signatures.map(jkuOf).find((u) => u !== undefined);
      if (!jku) return skip('signed, but no signature names a jku (JWKS URL) to fetch the key from');
      const answer = await ctx.call(jku, { anonymous: true, version: null, maxBytes: MAX_JWKS_BYTES });
      const jwks = answer.json as { keys?: unknown } | undefined;
      if (answer.status !== 200 || !Array.isArray(jwks?.keys)) return fail(`the JWKS at ${jku}: ${described(answer)}`);
      const verdict = await verifyAgentCard(ctx.card, jwks as never);
      return verdict.valid
        ? pass(`kid ${verdict.kid} (${verdict.alg})`)
        : fail(`no valid signature: ${verdict.reason}`);
    },
  },
  {
    id: 'card.cache-control',
    area: 'card',
    level: 'SHOULD',
    spec: '§8.6.1 Caching, Server Requirements',
    title: 'the card comes with Cache-Control max-age',
    async run(ctx) {
      const value = ctx.cardAnswer.headers.get('cache-control');
      return value && /max-age=\d+/i.test(value)
        ? pass(value)
        : fail(`Cache-Control is ${value ? `"${value}"` : 'absent'}`);
    },
  },
  {
    id: 'card.etag',
    area: 'card',
    level: 'SHOULD',
    spec: '§8.6.1 Caching, Server Requirements',
    title: 'the card comes with an ETag',
    async run(ctx) {
      const etag = ctx.cardAnswer.headers.get('etag');
      return etag ? pass(etag) : fail('no ETag header');
    },
  },
];

function jkuOf(signature: unknown): string | undefined {
  const protectedHeader = (signature as { protected?: unknown })?.protected;
  if (typeof protectedHeader !== 'string') return undefined;
  try {
    const header = JSON.parse(Buffer.from(protectedHeader, 'base64url').toString('utf8')) as { jku?: unknown };
    return typeof header.jku === 'string' ? header.jku : undefined;
  } catch {
    return undefined;
  }
}
