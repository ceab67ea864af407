import { type Check, fail, pass, skip, type Verdict } from '../check.js';
import type { CheckContext } from '../context.js';
import type { Answer } from '../http.js';
import { rest, rpc, unknownTaskId } from './calls.js';
import { described, describedGrpc, rpcEnvelope } from './expect-error.js';
import { grpcReachable } from './grpc-checks.js';

/** Whether the card requires credentials for calls: a non-empty `securityRequirements`. */
const secured = (ctx: CheckContext) =>
  Array.isArray(ctx.card.securityRequirements) && ctx.card.securityRequirements.length > 0;

/** The same read-only call without credentials on each v1.0 binding the run checks. */
async function anonymousCalls(ctx: CheckContext): Promise<{ binding: string; answer: Answer }[]> {
  const out: { binding: string; answer: Answer }[] = [];
  const jsonrpc = ctx.iface('jsonrpc');
  if (jsonrpc)
    out.push({
      binding: 'JSONRPC',
      answer: await rpc(ctx, jsonrpc, 'GetTask', { id: unknownTaskId() }, { anonymous: true }),
    });
  const http = ctx.iface('http+json');
  if (http)
    out.push({
      binding: 'HTTP+JSON',
      answer: await rest(ctx, http, 'GET', `/tasks/${unknownTaskId()}`, undefined, { anonymous: true }),
    });
  return out;
}

const calls = new WeakMap<CheckContext['shared'], Promise<{ binding: string; answer: Answer }[]>>();
/** Both security checks read the same anonymous answers: asked once per run. */
const anonymous = (ctx: CheckContext) => {
  const known = calls.get(ctx.shared);
  if (known) return known;
  const answers = anonymousCalls(ctx);
  calls.set(ctx.shared, answers);
  return answers;
};

/** Declared schemes are enforced, the card itself is public. */
export const SECURITY_CHECKS: Check[] = [
  {
    id: 'security.card-public',
    area: 'security',
    level: 'MAY',
    spec: '§8.2 Discovery Mechanisms, §13.3 (the public Agent Card)',
    title: 'the card is readable without credentials',
    async run(ctx) {
      const status = ctx.shared.get('card.anonymousStatus') as number;
      return status === 200 ? pass() : fail(`without credentials the card answered ${status}`);
    },
  },
  {
    id: 'security.credentials-required',
    area: 'security',
    level: 'MUST',
    spec: '§3.3.2 Error Handling (authentication), §7.4',
    title:
      'a call without credentials is refused (HTTP 401/403, gRPC UNAUTHENTICATED/PERMISSION_DENIED) when the card requires them',
    async run(ctx) {
      if (!secured(ctx)) return skip('the card declares no securityRequirements');
      const answers = (await anonymous(ctx)).map(({ binding, answer }) => ({
        binding,
        refused: refused(answer),
        said: refused(answer) ? String(answer.status) : described(answer),
      }));
      const grpc = ctx.iface('grpc');
      if (grpc && !(await grpcReachable(ctx, grpc))) {
        const answer = await ctx.grpc(grpc, 'GetTask', { id: unknownTaskId() }, { anonymous: true });
        const no = answer.codeName === 'UNAUTHENTICATED' || answer.codeName === 'PERMISSION_DENIED';
        answers.push({ binding: 'GRPC', refused: no, said: no ? answer.codeName : describedGrpc(answer) });
      }
      if (answers.length === 0) return skip('no v1.0 interface to call');
      const accepted = answers.filter((a) => !a.refused);
      return accepted.length
        ? fail(accepted.map((a) => `${a.binding} served it without credentials: ${a.said}`).join('; '))
        : pass(answers.map((a) => `${a.binding} ${a.said}`).join(', '));
    },
  },
  {
    id: 'security.www-authenticate',
    area: 'security',
    level: 'MUST',
    spec: '§3.3.2 Error Handling (authentication challenge); RFC 9110 §15.5.2 (a 401 carries WWW-Authenticate)',
    title: 'a 401 answer carries a WWW-Authenticate challenge',
    async run(ctx): Promise<Verdict> {
      if (!secured(ctx)) return skip('the card declares no securityRequirements');
      const answers = (await anonymous(ctx)).filter(({ answer }) => answer.status === 401);
      if (answers.length === 0) return skip('no call was answered 401');
      const bare = answers.filter(({ answer }) => !answer.headers.get('www-authenticate'));
      return bare.length
        ? fail(`${bare.map((b) => b.binding).join(', ')} answered 401 without a WWW-Authenticate header`)
        : pass(answers.map(({ answer }) => answer.headers.get('www-authenticate')).join('; '));
    },
  },
];

/** Refused: 401/403, or (JSON-RPC) an error that is not the task lookup the call asked for. */
function refused(answer: Answer): boolean {
  if (answer.status === 401 || answer.status === 403) return true;
  const error = (rpcEnvelope(answer) as { error?: { code?: unknown } } | undefined)?.error;
  return answer.status < 500 && error !== undefined && error.code !== -32001 && error.code !== -32602;
}
