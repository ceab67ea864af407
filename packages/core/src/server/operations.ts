import type { z } from 'zod';
import { merge } from '../merge.js';
import type { AgentCard } from '../schemas/agent-card.js';
import {
  CancelTaskRequestSchema,
  CreateTaskPushNotificationConfigRequestSchema,
  DeleteTaskPushNotificationConfigRequestSchema,
  GetExtendedAgentCardRequestSchema,
  GetTaskPushNotificationConfigRequestSchema,
  GetTaskRequestSchema,
  ListTaskPushNotificationConfigsRequestSchema,
  ListTasksRequestSchema,
  SendMessageRequestSchema,
  SubscribeToTaskRequestSchema,
} from '../schemas/requests.js';
import { simpleSendMessage } from '../schemas/simple-send-message.js';
import type { StreamResponse } from '../schemas/task.js';
import { parseEventId } from '../store/stream-response.js';
import type { OperationTelemetry } from '../telemetry/operation-telemetry.js';
import type { AgentCardInput } from './agent-card-input.js';
import type { CallContext } from './agent-executor.js';
import { extendCall } from './call-context.js';
import type { A2ARequestHandler } from './request-handler.js';

export interface OperationEnv {
  handler: A2ARequestHandler;
  call: CallContext;
  /** Completes a card for the interface the request came through (its URLs). */
  publishCard: (card: AgentCardInput) => AgentCard;
  /** The request's span and metrics; `undefined` when no OpenTelemetry SDK is registered. */
  telemetry?: OperationTelemetry | undefined;
}

/** The env with some call fields replaced (the tenant from params, a legacy wire version). */
export const withCall = (env: OperationEnv, patch: Parameters<typeof extendCall>[1]): OperationEnv =>
  merge(env, { call: extendCall(env.call, patch) });

interface OperationBase<S extends z.ZodType> {
  params: S;
  /** The schema's output for the common simple shape, checked by hand; `undefined` sends the params to `params`. */
  shortcut?: (params: unknown) => z.output<S> | undefined;
}
interface UnaryOperation<S extends z.ZodType = z.ZodType, R = unknown> extends OperationBase<S> {
  stream?: false;
  run(params: z.output<S>, env: OperationEnv): Promise<R>;
}
interface StreamOperation<S extends z.ZodType = z.ZodType> extends OperationBase<S> {
  stream: true;
  run(params: z.output<S>, env: OperationEnv): AsyncGenerator<StreamResponse>;
}
/** Any operation, its types erased: what code that picks one by a runtime name holds. */
export type Operation = UnaryOperation | StreamOperation;

/** An entry as written: its params typed by its schema, its result inferred from `run`. */
function op<S extends z.ZodType, R>(operation: UnaryOperation<S, R>): UnaryOperation<S, R>;
function op<S extends z.ZodType>(operation: StreamOperation<S>): StreamOperation<S>;
function op(operation: Operation): Operation {
  return operation;
}

/**
 * Every binding and wire version runs its operations through this table, so this is where the request's telemetry
 * learns the operation, its ids, its result or error, and follows its stream. Without telemetry: one property read.
 */
function observed<T extends Record<string, Operation>>(table: T): T {
  for (const [name, operation] of Object.entries(table)) {
    if (operation.stream) {
      const run = operation.run;
      operation.run = (params, env) => {
        const telemetry = env.telemetry;
        if (!telemetry) return run(params, env);
        telemetry.operation(name, params);
        return telemetry.stream(run(params, env));
      };
    } else {
      const run = operation.run;
      operation.run = (params, env) => {
        const telemetry = env.telemetry;
        if (!telemetry) return run(params, env);
        telemetry.operation(name, params);
        return run(params, env).then(
          (result) => {
            telemetry.result(result);
            return result;
          },
          (error: unknown) => {
            telemetry.fail(error);
            throw error;
          },
        );
      };
    }
  }
  return table;
}

/** An operation's params checked: its shortcut when it takes them, else its schema. */
export function parseOperationParams<S extends z.ZodType>(
  operation: OperationBase<S>,
  params: unknown,
): z.ZodSafeParseResult<z.output<S>> {
  const simple = operation.shortcut?.(params);
  return simple ? { success: true, data: simple } : operation.params.safeParse(params);
}

const table = {
  SendMessage: op({
    params: SendMessageRequestSchema,
    shortcut: simpleSendMessage,
    run: (p, { handler, call }) => handler.sendMessage(p, call),
  }),
  SendStreamingMessage: op({
    params: SendMessageRequestSchema,
    shortcut: simpleSendMessage,
    stream: true,
    run: (p, { handler, call }) => handler.sendStreamingMessage(p, call),
  }),
  GetTask: op({ params: GetTaskRequestSchema, run: (p, { handler, call }) => handler.getTask(p, call) }),
  ListTasks: op({ params: ListTasksRequestSchema, run: (p, { handler, call }) => handler.listTasks(p, call) }),
  CancelTask: op({ params: CancelTaskRequestSchema, run: (p, { handler, call }) => handler.cancelTask(p, call) }),
  SubscribeToTask: op({
    params: SubscribeToTaskRequestSchema,
    stream: true,
    run: (p, { handler, call }) => handler.subscribeToTask(p, call, parseEventId(call.lastEventId)),
  }),
  CreateTaskPushNotificationConfig: op({
    params: CreateTaskPushNotificationConfigRequestSchema,
    run: (p, { handler, call }) => handler.createPushConfig(p, call),
  }),
  GetTaskPushNotificationConfig: op({
    params: GetTaskPushNotificationConfigRequestSchema,
    run: (p, { handler, call }) => handler.getPushConfig(p, call),
  }),
  ListTaskPushNotificationConfigs: op({
    params: ListTaskPushNotificationConfigsRequestSchema,
    run: (p, { handler, call }) => handler.listPushConfigs(p, call),
  }),
  DeleteTaskPushNotificationConfig: op({
    params: DeleteTaskPushNotificationConfigRequestSchema,
    run: async (p, { handler, call }) => {
      await handler.deletePushConfig(p, call);
      return {};
    },
  }),
  GetExtendedAgentCard: op({
    params: GetExtendedAgentCardRequestSchema,
    run: async (_p, { handler, call, publishCard }) => publishCard(await handler.getExtendedAgentCard(call)),
  }),
};
type Table = typeof table;

export type OperationName = keyof Table;
/** The params an operation runs on: its schema's output. */
export type OperationParams<N extends OperationName> = z.output<Table[N]['params']>;
/** What an operation's `run` returns: a promise of its result, or its events. */
export type OperationOutput<N extends OperationName> = ReturnType<Table[N]['run']>;

/**
 * An entry typed by its name, so that `OPERATIONS[name].run(...)` for a generic `name` takes and gives that name's
 * types: TypeScript relates the two only through a mapped type over the names (TS#47109). Code that picks an entry by
 * a runtime name holds it as the erased `Operation` (`const operation: Operation = OPERATIONS[name]`).
 */
type TypedOperation<N extends OperationName> = OperationBase<Table[N]['params']> &
  Pick<Table[N], 'stream'> & { run(params: OperationParams<N>, env: OperationEnv): OperationOutput<N> };

/** Every v1.0 operation by its method name; both bindings dispatch through this table. */
export const OPERATIONS: { readonly [N in OperationName]: TypedOperation<N> } = observed(table);

/** `params` checked by the schema of the operation `name`, typed as that operation's params. */
export function parseParamsOf<N extends OperationName>(
  name: N,
  params: unknown,
): z.ZodSafeParseResult<OperationParams<N>> {
  const operation: Operation = OPERATIONS[name];
  // The one cast: entry N's schema parses to OperationParams<N>, which TypeScript cannot follow for a generic N.
  return parseOperationParams(operation, params) as z.ZodSafeParseResult<OperationParams<N>>;
}
