import { type Check, fail, pass, skip, type Verdict } from '../check.js';
import type { CheckContext, Interface } from '../context.js';
import { rpc, unknownTaskId } from './calls.js';
import { described, expectRpcError, rpcEnvelope } from './expect-error.js';

/** Runs `body` against the run's v1.0 JSON-RPC interface, or skips when there is none. */
const onJsonRpc =
  (body: (ctx: CheckContext, iface: Interface) => Promise<Verdict>) =>
  (ctx: CheckContext): Promise<Verdict> => {
    const iface = ctx.iface('jsonrpc');
    return iface ? body(ctx, iface) : Promise.resolve(skip('no JSONRPC interface at protocol version 1.0 to check'));
  };

const raw = (ctx: CheckContext, iface: Interface, body: string) =>
  ctx.call(iface.url, { method: 'POST', body, headers: { 'Content-Type': 'application/json' } });

const streaming = (ctx: CheckContext) =>
  (ctx.card.capabilities as { streaming?: unknown } | undefined)?.streaming === true;

/** The JSON-RPC binding's envelope and error semantics, read-only (unknown task ids only). */
export const JSONRPC_CHECKS: Check[] = [
  {
    id: 'jsonrpc.parse-error',
    area: 'jsonrpc',
    level: 'MUST',
    spec: '§9.5 Error Handling',
    title: 'a body that is not JSON gets -32700 (JSONParseError), id null',
    run: onJsonRpc(async (ctx, iface) =>
      expectRpcError(await raw(ctx, iface, '{"jsonrpc":"2.0","method":'), ['ParseError'], null),
    ),
  },
  {
    id: 'jsonrpc.invalid-request',
    area: 'jsonrpc',
    level: 'MUST',
    spec: '§9.5 Error Handling',
    title: 'a request object without "method" gets -32600 (InvalidRequestError)',
    run: onJsonRpc(async (ctx, iface) =>
      expectRpcError(await raw(ctx, iface, '{"jsonrpc":"2.0","id":1,"params":{}}'), ['InvalidRequest']),
    ),
  },
  {
    id: 'jsonrpc.method-not-found',
    area: 'jsonrpc',
    level: 'MUST',
    spec: '§9.5 Error Handling',
    title: 'an unknown method gets -32601 (MethodNotFoundError)',
    run: onJsonRpc(async (ctx, iface) =>
      expectRpcError(await rpc(ctx, iface, 'NoSuchMethodA2aCheck', {}), ['MethodNotFound']),
    ),
  },
  {
    id: 'jsonrpc.invalid-params',
    area: 'jsonrpc',
    level: 'MUST',
    spec: '§3.3.2 Error Handling (validation), §9.5',
    title: 'GetTask without its required "id" gets -32602 (InvalidParamsError)',
    run: onJsonRpc(async (ctx, iface) => expectRpcError(await rpc(ctx, iface, 'GetTask', {}), ['InvalidParams'])),
  },
  {
    id: 'jsonrpc.invalid-params.field-named',
    area: 'jsonrpc',
    level: 'SHOULD',
    spec: '§3.3.2 Error Handling (validation)',
    title: 'the -32602 error says which parameter failed ("id")',
    run: onJsonRpc(async (ctx, iface) => {
      const answer = await rpc(ctx, iface, 'GetTask', {});
      const error = (rpcEnvelope(answer) as { error?: { message?: unknown; data?: unknown } })?.error;
      if (!error) return skip(`no error to read: ${described(answer)}`);
      const said = JSON.stringify([error.message, error.data]);
      return /\bid\b/i.test(said) ? pass() : fail(`neither the message nor data name the field "id": ${said}`);
    }),
  },
  {
    id: 'jsonrpc.task-not-found.get',
    area: 'jsonrpc',
    level: 'MUST',
    spec: '§3.1.3 Get Task, §5.4',
    title: 'GetTask of an unknown id gets -32001 (TaskNotFoundError)',
    run: onJsonRpc(async (ctx, iface) =>
      expectRpcError(await rpc(ctx, iface, 'GetTask', { id: unknownTaskId() }), ['TaskNotFound']),
    ),
  },
  {
    id: 'jsonrpc.task-not-found.cancel',
    area: 'jsonrpc',
    level: 'MUST',
    spec: '§3.1.5 Cancel Task, §5.4',
    title: 'CancelTask of an unknown id gets -32001 (TaskNotFoundError)',
    run: onJsonRpc(async (ctx, iface) =>
      expectRpcError(await rpc(ctx, iface, 'CancelTask', { id: unknownTaskId() }), ['TaskNotFound']),
    ),
  },
  {
    id: 'jsonrpc.task-not-found.subscribe',
    area: 'jsonrpc',
    level: 'MUST',
    spec: '§3.1.6 Subscribe to Task, §5.4',
    title: 'SubscribeToTask of an unknown id gets -32001 (TaskNotFoundError)',
    run: onJsonRpc(async (ctx, iface) => {
      if (!streaming(ctx)) return skip('streaming is not declared (capabilities.streaming-refused checks that)');
      return expectRpcError(await rpc(ctx, iface, 'SubscribeToTask', { id: unknownTaskId() }), ['TaskNotFound']);
    }),
  },
  {
    id: 'jsonrpc.version-not-supported',
    area: 'jsonrpc',
    level: 'MUST',
    spec: '§3.6.2 Server Responsibilities',
    title: 'A2A-Version: 99.0 gets -32009 (VersionNotSupportedError)',
    run: onJsonRpc(async (ctx, iface) =>
      expectRpcError(await rpc(ctx, iface, 'GetTask', { id: unknownTaskId() }, { version: '99.0' }), [
        'VersionNotSupported',
      ]),
    ),
  },
  {
    id: 'jsonrpc.list-tasks',
    area: 'jsonrpc',
    level: 'MUST',
    spec: '§3.1.4 List Tasks',
    title: 'ListTasks answers tasks, nextPageToken (always present), pageSize and totalSize',
    run: onJsonRpc(async (ctx, iface) => {
      const answer = await rpc(ctx, iface, 'ListTasks', {});
      const result = (rpcEnvelope(answer) as { result?: unknown })?.result;
      return listShape(result, described(answer));
    }),
  },
];

/** The ListTasksResponse fields the spec requires (§3.1.4; REQUIRED in the proto). */
export function listShape(result: unknown, got: string): Verdict {
  if (typeof result !== 'object' || result === null) return fail(`expected a ListTasksResponse, got ${got}`);
  const r = result as Record<string, unknown>;
  const wrong = [
    !Array.isArray(r.tasks) && '"tasks" is not an array',
    typeof r.nextPageToken !== 'string' && '"nextPageToken" is missing (MUST always be present, "" on the last page)',
    typeof r.pageSize !== 'number' && '"pageSize" is not a number',
    typeof r.totalSize !== 'number' && '"totalSize" is not a number',
  ].filter(Boolean);
  return wrong.length ? fail(wrong.join('; ')) : pass(`${(r.tasks as unknown[]).length} task(s)`);
}
