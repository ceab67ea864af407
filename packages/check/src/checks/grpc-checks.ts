import { type Check, fail, pass, skip, type Verdict } from '../check.js';
import type { CheckContext, Interface } from '../context.js';
import { NoAnswer } from '../http.js';
import { unknownTaskId } from './calls.js';
import { describedGrpc, expectGrpcError } from './expect-error.js';
import { listShape } from './jsonrpc-checks.js';
import { streamResponses, userMessage } from './send-checks.js';

/**
 * Whether a GRPC interface serves lf.a2a.v1.A2AService: undefined when it answers (any status but UNIMPLEMENTED),
 * else why not (no connection, no answer in time, the service not there).
 */
export async function grpcServes(
  ctx: CheckContext,
  iface: Interface,
  version: string | null,
): Promise<string | undefined> {
  try {
    const answer = await ctx.grpc(iface, 'GetTask', { id: unknownTaskId() }, { version });
    return answer.codeName === 'UNIMPLEMENTED'
      ? `does not serve lf.a2a.v1.A2AService (${describedGrpc(answer)})`
      : undefined;
  } catch (error) {
    if (error instanceof NoAnswer) return error.message;
    throw error;
  }
}

const REACHABLE = 'grpc.reachable';

/** `grpcServes` for the run's GRPC interface, asked once per run (every gRPC check reads it). */
export function grpcReachable(ctx: CheckContext, iface: Interface): Promise<string | undefined> {
  let reachable = ctx.shared.get(REACHABLE) as Promise<string | undefined> | undefined;
  if (!reachable) {
    reachable = grpcServes(ctx, iface, '1.0').catch((error: unknown) => String(error));
    ctx.shared.set(REACHABLE, reachable);
  }
  return reachable;
}

/**
 * Runs `body` against the run's v1.0 GRPC interface; skips when there is none, or when it does not answer at all
 * (card.interfaces-reachable fails for that once, rather than every gRPC check).
 */
const onGrpc =
  (body: (ctx: CheckContext, iface: Interface) => Promise<Verdict>) =>
  async (ctx: CheckContext): Promise<Verdict> => {
    const iface = ctx.iface('grpc');
    if (!iface) return skip('no GRPC interface at protocol version 1.0 to check');
    const problem = await grpcReachable(ctx, iface);
    if (problem) return skip(`the GRPC interface ${iface.url} ${problem} (card.interfaces-reachable reports it)`);
    return body(ctx, iface);
  };

const streaming = (ctx: CheckContext) =>
  (ctx.card.capabilities as { streaming?: unknown } | undefined)?.streaming === true;

/** The gRPC binding (§10): error statuses and their details, ListTasks, and with --send a stream. */
export const GRPC_CHECKS: Check[] = [
  {
    id: 'grpc.task-not-found.get',
    area: 'grpc',
    level: 'MUST',
    spec: '§10.6 Error Handling, §5.4, §3.1.3',
    title: 'GetTask of an unknown id ends with NOT_FOUND and ErrorInfo TASK_NOT_FOUND',
    run: onGrpc(async (ctx, iface) =>
      expectGrpcError(await ctx.grpc(iface, 'GetTask', { id: unknownTaskId() }), 'TaskNotFound'),
    ),
  },
  {
    id: 'grpc.task-not-found.cancel',
    area: 'grpc',
    level: 'MUST',
    spec: '§10.6 Error Handling, §5.4, §3.1.5',
    title: 'CancelTask of an unknown id ends with NOT_FOUND and ErrorInfo TASK_NOT_FOUND',
    run: onGrpc(async (ctx, iface) =>
      expectGrpcError(await ctx.grpc(iface, 'CancelTask', { id: unknownTaskId() }), 'TaskNotFound'),
    ),
  },
  {
    id: 'grpc.task-not-found.subscribe',
    area: 'grpc',
    level: 'MUST',
    spec: '§10.6 Error Handling, §5.4, §3.1.6',
    title: 'SubscribeToTask of an unknown id ends with NOT_FOUND and ErrorInfo TASK_NOT_FOUND',
    run: onGrpc(async (ctx, iface) => {
      if (!streaming(ctx)) return skip('streaming is not declared (capabilities.streaming-refused checks that)');
      return expectGrpcError(await ctx.grpc(iface, 'SubscribeToTask', { id: unknownTaskId() }), 'TaskNotFound');
    }),
  },
  {
    id: 'grpc.invalid-params',
    area: 'grpc',
    level: 'MUST',
    spec: '§3.3.2 Error Handling (validation), §10.6',
    title: 'GetTask without its required "id" ends with INVALID_ARGUMENT',
    run: onGrpc(async (ctx, iface) => expectGrpcError(await ctx.grpc(iface, 'GetTask', {}), 'InvalidParams')),
  },
  {
    id: 'grpc.invalid-params.field-named',
    area: 'grpc',
    level: 'SHOULD',
    spec: '§3.3.2 Error Handling (validation)',
    title: 'the INVALID_ARGUMENT status says which field failed ("id")',
    run: onGrpc(async (ctx, iface) => {
      const answer = await ctx.grpc(iface, 'GetTask', {});
      if (answer.code === 0) return skip(`no error to read: ${describedGrpc(answer)}`);
      const said = JSON.stringify([answer.message, answer.details?.fieldViolations ?? []]);
      return /\bid\b/i.test(said)
        ? pass()
        : fail(`neither the message nor a BadRequest field violation names the field "id": ${said}`);
    }),
  },
  {
    id: 'grpc.version-not-supported',
    area: 'grpc',
    level: 'MUST',
    spec: '§3.6.2 Server Responsibilities, §10.2, §5.4',
    title: 'a2a-version: 99.0 ends with FAILED_PRECONDITION and ErrorInfo VERSION_NOT_SUPPORTED',
    run: onGrpc(async (ctx, iface) =>
      expectGrpcError(
        await ctx.grpc(iface, 'GetTask', { id: unknownTaskId() }, { version: '99.0' }),
        'VersionNotSupported',
      ),
    ),
  },
  {
    id: 'grpc.list-tasks',
    area: 'grpc',
    level: 'MUST',
    spec: '§3.1.4 List Tasks, §10.4.4',
    title: 'ListTasks answers a ListTasksResponse',
    run: onGrpc(async (ctx, iface) => {
      const answer = await ctx.grpc(iface, 'ListTasks', {}, { implicit: true });
      if (answer.code !== 0) return fail(`expected a ListTasksResponse, got ${describedGrpc(answer)}`);
      if (answer.undecodable) return fail(answer.undecodable);
      return listShape(answer.result, describedGrpc(answer));
    }),
  },
  {
    id: 'grpc.streaming',
    area: 'grpc',
    level: 'MUST',
    spec: '§3.1.2 Send Streaming Message, §10.7',
    title: 'with --send, SendStreamingMessage streams a Task or Message first, then updates of that task',
    run: onGrpc(async (ctx, iface) => {
      if (ctx.options.send === undefined) return skip('creates a task: run with --send "<text>" to allow it');
      if (!streaming(ctx)) return skip('streaming is not declared (capabilities.streaming-refused checks the refusal)');
      const answer = await ctx.grpc(iface, 'SendStreamingMessage', userMessage(ctx.options.send), { maxEvents: 50 });
      if (answer.undecodable) return fail(answer.undecodable);
      if (answer.code !== 0) return fail(`the stream ended with ${describedGrpc(answer)}`);
      return streamResponses(answer.events ?? []);
    }),
  },
];
