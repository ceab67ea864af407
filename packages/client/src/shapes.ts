import type { StreamResponse } from '@a2a/core';
import type { UnaryOperation } from './wire.js';

// Structural checks of the agent's results, without zod (it would triple the browser bundle): the discriminating keys
// and the fields the v1.0 types promise as required, so code that trusts the types never meets a TypeError.

type Check = (value: unknown) => boolean;

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const text: Check = (value) => typeof value === 'string' && value !== '';
/** ProtoJSON may write an absent field as null. */
const optional =
  (check: Check): Check =>
  (value) =>
    value == null || check(value);
const listOf =
  (check: Check): Check =>
  (value) =>
    Array.isArray(value) && value.every(check);
const shape =
  (fields: Record<string, Check>): Check =>
  (value) =>
    isObject(value) && Object.entries(fields).every(([key, check]) => check(value[key]));

const parts = listOf(isObject);
const message = shape({ messageId: text, role: text, parts });
const status = shape({ state: text, message: optional(message) });
const artifact = shape({ artifactId: text, parts });
const task = shape({
  id: text,
  contextId: text,
  status,
  artifacts: optional(listOf(artifact)),
  history: optional(listOf(message)),
});
const pushConfig = shape({ id: text, taskId: text, url: text });

const EVENTS: Record<string, Check> = {
  task,
  message,
  statusUpdate: shape({ taskId: text, contextId: text, status }),
  artifactUpdate: shape({ taskId: text, contextId: text, artifact }),
};

/** The one member of a StreamResponse (exactly one of task, message, statusUpdate, artifactUpdate), if valid. */
function memberOf(value: unknown): string | undefined {
  if (!isObject(value)) return undefined;
  const present = Object.keys(EVENTS).filter((key) => value[key] != null);
  const [key] = present;
  return present.length === 1 && key && EVENTS[key]?.(value[key]) ? key : undefined;
}

export const isStreamResponse = (value: unknown): value is StreamResponse => memberOf(value) !== undefined;

/** What each operation's result must be (DeleteTaskPushNotificationConfig's is ignored; the card has checkCard). */
export const RESULTS: Partial<Record<UnaryOperation, Check>> = {
  SendMessage: (value) => ['task', 'message'].includes(memberOf(value) ?? ''),
  GetTask: task,
  CancelTask: task,
  ListTasks: shape({ tasks: listOf(task) }),
  CreateTaskPushNotificationConfig: pushConfig,
  GetTaskPushNotificationConfig: pushConfig,
  ListTaskPushNotificationConfigs: shape({ configs: listOf(pushConfig) }),
};
