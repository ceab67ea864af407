import type { z } from 'zod';
import type { AgentCardInput } from '../card/agent-card-input.js';
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
interface UnaryOperation<S extends z.ZodType> extends OperationBase<S> {
  stream?: false;
  run(params: z.output<S>, env: OperationEnv): Promise<unknown>;
}
interface StreamOperation<S extends z.ZodType> extends OperationBase<S> {
  stream: true;
  run(params: z.output<S>, env: OperationEnv): AsyncGenerator<StreamResponse>;
}
export type Operation = UnaryOperation<z.ZodType> | StreamOperation<z.ZodType>;

const op = <S extends z.ZodType>(o: UnaryOperation<S> | StreamOperation<S>) => o as unknown as Operation;

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
export function parseOperationParams(operation: Operation, params: unknown): ReturnType<z.ZodType['safeParse']> {
  const simple = operation.shortcut?.(params);
  return simple ? { success: true, data: simple } : operation.params.safeParse(params);
}

/** Every v1.0 operation by its method name; both bindings dispatch through this table. */
export const OPERATIONS = observed({
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
} satisfies Record<string, Operation>);

export type OperationName = keyof typeof OPERATIONS;
