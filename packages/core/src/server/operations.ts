import type { z } from 'zod';
import { merge } from '../merge.js';
import { onDemand } from '../on-demand.js';
import type { AgentCard } from '../schemas/agent-card.js';
import type * as Schemas from '../schemas/index.js';
import { simpleSendMessage } from '../schemas/simple-send-message.js';
import type { StreamResponse } from '../schemas/task.js';
import {
  INVALID,
  validateCancelTaskRequest,
  validateCreateTaskPushNotificationConfigRequest,
  validateGetExtendedAgentCardRequest,
  validateGetTaskPushNotificationConfigRequest,
  validateGetTaskRequest,
  validateListTaskPushNotificationConfigsRequest,
  validateListTasksRequest,
  validateSendMessageRequest,
  validateSubscribeToTaskRequest,
} from '../schemas/validators.generated.js';
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

/** The name of a Zod schema in `@a2a/core/schemas`. */
export type SchemaName = {
  [K in keyof typeof Schemas]: (typeof Schemas)[K] extends z.ZodType ? K : never;
}[keyof typeof Schemas];

interface OperationBase<P> {
  /**
   * The params' check, generated from the Zod schema (schemas/validators.generated.ts): their parsed form, or
   * `INVALID`. No Zod at start-up or on an accepted request (docs/performance.md, "Cold start").
   */
  params: (params: unknown) => P | typeof INVALID;
  /** The Zod schema `params` was generated from, loaded at the first refusal for its field-named error. */
  schema: SchemaName;
  /** The schema's output for the common simple shape, checked by hand; `undefined` sends the params to `params`. */
  shortcut?: (params: unknown) => P | undefined;
}
interface UnaryOperation<P = unknown, R = unknown> extends OperationBase<P> {
  stream?: false;
  run(params: P, env: OperationEnv): Promise<R>;
}
interface StreamOperation<P = unknown> extends OperationBase<P> {
  stream: true;
  run(params: P, env: OperationEnv): AsyncGenerator<StreamResponse>;
}
/** Any operation, its types erased: what code that picks one by a runtime name holds. */
export type Operation = UnaryOperation | StreamOperation;

/** An entry as written: its params typed by its validator, its result inferred from `run`. */
function op<P, R>(operation: UnaryOperation<P, R>): UnaryOperation<P, R>;
function op<P>(operation: StreamOperation<P>): StreamOperation<P>;
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

/** The Zod schemas: loaded at the first refused params only. */
const loadSchemas = onDemand(() => import('../schemas/index.js'));

/**
 * An operation's params checked: its shortcut when it takes them, else its generated validator. A refusal comes back
 * as a promise of the Zod schema's result (the field-named issues), once the schemas have loaded; an acceptance is
 * synchronous. The validator and the schema agree (schemas/validators.test.ts); should they not, Zod decides.
 */
export function parseOperationParams<P>(
  operation: OperationBase<P>,
  params: unknown,
): z.ZodSafeParseResult<P> | Promise<z.ZodSafeParseResult<P>> {
  const simple = operation.shortcut?.(params);
  if (simple) return { success: true, data: simple };
  const data = operation.params(params);
  if (data !== INVALID) return { success: true, data };
  return loadSchemas().then((schemas) => (schemas[operation.schema] as unknown as z.ZodType<P>).safeParse(params));
}

const table = {
  SendMessage: op({
    params: validateSendMessageRequest,
    schema: 'SendMessageRequestSchema',
    shortcut: simpleSendMessage,
    run: (p, { handler, call }) => handler.sendMessage(p, call),
  }),
  SendStreamingMessage: op({
    params: validateSendMessageRequest,
    schema: 'SendMessageRequestSchema',
    shortcut: simpleSendMessage,
    stream: true,
    run: (p, { handler, call }) => handler.sendStreamingMessage(p, call),
  }),
  GetTask: op({
    params: validateGetTaskRequest,
    schema: 'GetTaskRequestSchema',
    run: (p, { handler, call }) => handler.getTask(p, call),
  }),
  ListTasks: op({
    params: validateListTasksRequest,
    schema: 'ListTasksRequestSchema',
    run: (p, { handler, call }) => handler.listTasks(p, call),
  }),
  CancelTask: op({
    params: validateCancelTaskRequest,
    schema: 'CancelTaskRequestSchema',
    run: (p, { handler, call }) => handler.cancelTask(p, call),
  }),
  SubscribeToTask: op({
    params: validateSubscribeToTaskRequest,
    schema: 'SubscribeToTaskRequestSchema',
    stream: true,
    run: (p, { handler, call }) => handler.subscribeToTask(p, call, parseEventId(call.lastEventId)),
  }),
  CreateTaskPushNotificationConfig: op({
    params: validateCreateTaskPushNotificationConfigRequest,
    schema: 'CreateTaskPushNotificationConfigRequestSchema',
    run: (p, { handler, call }) => handler.createPushConfig(p, call),
  }),
  GetTaskPushNotificationConfig: op({
    params: validateGetTaskPushNotificationConfigRequest,
    schema: 'GetTaskPushNotificationConfigRequestSchema',
    run: (p, { handler, call }) => handler.getPushConfig(p, call),
  }),
  ListTaskPushNotificationConfigs: op({
    params: validateListTaskPushNotificationConfigsRequest,
    schema: 'ListTaskPushNotificationConfigsRequestSchema',
    run: (p, { handler, call }) => handler.listPushConfigs(p, call),
  }),
  DeleteTaskPushNotificationConfig: op({
    params: validateGetTaskPushNotificationConfigRequest,
    schema: 'DeleteTaskPushNotificationConfigRequestSchema',
    run: async (p, { handler, call }) => {
      await handler.deletePushConfig(p, call);
      return {};
    },
  }),
  GetExtendedAgentCard: op({
    params: validateGetExtendedAgentCardRequest,
    schema: 'GetExtendedAgentCardRequestSchema',
    run: async (_p, { handler, call, publishCard }) => publishCard(await handler.getExtendedAgentCard(call)),
  }),
};
type Table = typeof table;

export type OperationName = keyof Table;
/** The params an operation runs on: its schema's output. */
export type OperationParams<N extends OperationName> = Table[N] extends OperationBase<infer P> ? P : never;
/** What an operation's `run` returns: a promise of its result, or its events. */
export type OperationOutput<N extends OperationName> = ReturnType<Table[N]['run']>;

/**
 * An entry typed by its name, so that `OPERATIONS[name].run(...)` for a generic `name` takes and gives that name's
 * types: TypeScript relates the two only through a mapped type over the names (TS#47109). Code that picks an entry by
 * a runtime name holds it as the erased `Operation` (`const operation: Operation = OPERATIONS[name]`).
 */
type TypedOperation<N extends OperationName> = OperationBase<OperationParams<N>> &
  Pick<Table[N], 'stream'> & { run(params: OperationParams<N>, env: OperationEnv): OperationOutput<N> };

/** Every v1.0 operation by its method name; both bindings dispatch through this table. */
export const OPERATIONS: { readonly [N in OperationName]: TypedOperation<N> } = observed(table);

/** `params` checked by the schema of the operation `name`, typed as that operation's params. */
export function parseParamsOf<N extends OperationName>(
  name: N,
  params: unknown,
): z.ZodSafeParseResult<OperationParams<N>> | Promise<z.ZodSafeParseResult<OperationParams<N>>> {
  const operation: Operation = OPERATIONS[name];
  // The one cast: entry N's check gives OperationParams<N>, which TypeScript cannot follow for a generic N.
  return parseOperationParams(operation, params) as
    | z.ZodSafeParseResult<OperationParams<N>>
    | Promise<z.ZodSafeParseResult<OperationParams<N>>>;
}
