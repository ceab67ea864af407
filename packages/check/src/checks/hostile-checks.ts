import { type Check, fail, pass, skip, type Verdict } from '../check.js';
import type { CheckContext, Interface } from '../context.js';
import type { Answer } from '../http.js';
import { unknownTaskId } from './calls.js';
import { ANY_ID, described, expectRpcError, rpcEnvelope } from './expect-error.js';

/** 4 MiB: above the body limits agents commonly set, small enough to send in a check's time. */
const OVERSIZE_BYTES = 4 * 1024 * 1024;
/** Far deeper than any A2A object: a recursive parser or validator without a bound overflows on it. */
const DEPTH = 20_000;

/** One bad input for one binding: the request and how its refusal must read. */
interface Sample {
  body: string | Uint8Array<ArrayBuffer>;
  contentType: string;
  /** The path under the interface URL (HTTP+JSON); JSON-RPC posts to the interface URL itself. */
  path?: string;
}

/** A GetTask of an unknown id (JSON-RPC) or a cancel of one (HTTP+JSON): nothing is created if it is served. */
function rpcRequest(extra: string): string {
  return `{"jsonrpc":"2.0","id":1,"method":"GetTask","params":{"id":"${unknownTaskId()}"${extra}}}`;
}

const deep = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
const badUtf8 = (json: string) => {
  const bytes = new TextEncoder().encode(json);
  const at = json.indexOf('a2a-check-unknown-');
  const out = new Uint8Array(new ArrayBuffer(bytes.length));
  out.set(bytes);
  // An overlong encoding and a lone continuation byte inside the id string: not UTF-8 (RFC 3629), so not JSON.
  out[at] = 0xc0;
  out[at + 1] = 0x80;
  return out;
};

/**
 * The verdict on a hostile answer: never a 5xx (or no answer, which the runner reports), always a refusal. JSON-RPC:
 * a 4xx, or an error envelope with one of `rpcErrors`; HTTP+JSON: a 4xx with a google.rpc.Status body when it is 400.
 */
function refused(
  answer: Answer,
  binding: 'JSONRPC' | 'HTTP+JSON',
  rpcErrors: Parameters<typeof expectRpcError>[1],
): Verdict {
  if (answer.status >= 500)
    return fail(`answered ${described(answer)}: bad input must be refused with a 4xx, not a server error`);
  if (binding === 'JSONRPC') {
    if (answer.status >= 400 && answer.status < 500) return pass(`HTTP ${answer.status}`);
    const envelope = rpcEnvelope(answer) as { error?: unknown } | undefined;
    if (!envelope?.error) return fail(`the bad input was served: ${described(answer)}`);
    return expectRpcError(answer, rpcErrors, ANY_ID);
  }
  if (answer.status < 400) return fail(`the bad input was served: ${described(answer)}`);
  return pass(`HTTP ${answer.status}`);
}

function sampleCheck(
  id: string,
  level: Check['level'],
  spec: string,
  title: string,
  jsonrpc: () => Sample,
  http: () => Sample,
  rpcErrors: Parameters<typeof expectRpcError>[1],
): Check {
  return {
    id,
    area: 'hostile',
    level,
    spec,
    title,
    async run(ctx: CheckContext) {
      if (!ctx.options.hostile) return skip('run with --hostile to send bad input');
      const targets: [Interface | undefined, 'JSONRPC' | 'HTTP+JSON', () => Sample][] = [
        [ctx.iface('jsonrpc'), 'JSONRPC', jsonrpc],
        [ctx.iface('http+json'), 'HTTP+JSON', http],
      ];
      const passed: string[] = [];
      for (const [iface, binding, make] of targets) {
        if (!iface) continue;
        const sample = make();
        const url = binding === 'JSONRPC' ? iface.url : `${iface.url.replace(/\/+$/, '')}${sample.path}`;
        const answer = await ctx.call(url, {
          method: 'POST',
          body: sample.body,
          headers: { 'Content-Type': sample.contentType },
          maxBytes: 64 * 1024,
        });
        const verdict = refused(answer, binding, rpcErrors);
        if (verdict.status !== 'pass') return fail(`${binding}: ${verdict.detail}`);
        passed.push(`${binding} ${verdict.detail ?? ''}`.trim());
      }
      return passed.length ? pass(passed.join(', ')) : skip('no v1.0 JSONRPC or HTTP+JSON interface to send to');
    },
  };
}

const cancelPath = () => `/tasks/${unknownTaskId()}:cancel`;

/** With `--hostile`: a bounded sample of bad input, each refused with a 4xx or the binding's error, never a 5xx. */
export const HOSTILE_CHECKS: Check[] = [
  sampleCheck(
    'hostile.bad-utf8',
    'MUST',
    '§9.5 Error Handling (-32700), §3.3.2 (validation errors are 400)',
    'a body that is not UTF-8 is refused: a 4xx, -32700, or (decoded leniently) the unknown task refused, never a 5xx',
    () => ({ body: badUtf8(rpcRequest('')), contentType: 'application/json' }),
    () => ({
      body: badUtf8(`{"metadata":{"id":"${unknownTaskId()}"}}`),
      contentType: 'application/a2a+json',
      path: cancelPath(),
    }),
    // RFC 8259 §8.1 wants UTF-8, but neither it nor A2A makes a decoder reject (U+FFFD substitution is common).
    ['ParseError', 'InvalidRequest', 'InvalidParams', 'TaskNotFound'],
  ),
  sampleCheck(
    'hostile.deep-json',
    'MUST',
    '§3.3.2 Error Handling (validation errors are 4xx, not system errors)',
    `JSON nested ${DEPTH} deep is refused with a 4xx or a JSON-RPC error, not a 5xx`,
    () => ({ body: rpcRequest(`,"metadata":${deep(DEPTH)}`), contentType: 'application/json' }),
    () => ({ body: `{"metadata":${deep(DEPTH)}}`, contentType: 'application/a2a+json', path: cancelPath() }),
    ['ParseError', 'InvalidRequest', 'InvalidParams', 'TaskNotFound'],
  ),
  sampleCheck(
    'hostile.oversize-body',
    'SHOULD',
    '§3.3.2 Error Handling; RFC 9110 §15.5.14 (413 Content Too Large)',
    `a ${OVERSIZE_BYTES / 1024 / 1024} MiB body is refused with a 4xx (413) or a JSON-RPC error, not a 5xx`,
    () => ({
      body: rpcRequest(`,"metadata":{"pad":"${'x'.repeat(OVERSIZE_BYTES)}"}`),
      contentType: 'application/json',
    }),
    () => ({
      body: `{"metadata":{"pad":"${'x'.repeat(OVERSIZE_BYTES)}"}}`,
      contentType: 'application/a2a+json',
      path: cancelPath(),
    }),
    ['InvalidRequest', 'InvalidParams', 'TaskNotFound', 'ParseError'],
  ),
  sampleCheck(
    'hostile.wrong-content-type',
    'SHOULD',
    '§9.1 / §11.1 Protocol Requirements (JSON content types)',
    'a body sent as text/plain is refused with a 4xx or an error, not a 5xx',
    () => ({ body: rpcRequest(''), contentType: 'text/plain' }),
    () => ({ body: '{}', contentType: 'text/plain', path: cancelPath() }),
    ['InvalidRequest', 'InvalidParams', 'TaskNotFound', 'ParseError', 'ContentTypeNotSupported'],
  ),
];
