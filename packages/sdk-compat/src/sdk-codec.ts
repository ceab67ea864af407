// The objects of `@a2a-js/sdk` 1.x are ts-proto messages (numeric enums, `content.$case` parts, `Buffer` bytes); ours
// are their ProtoJSON form. The SDK's own generated codecs translate both ways, so nothing here restates the proto.
import type { AgentCard as CoreCard, Message, Task, TaskPushNotificationConfig } from '@a2a/core';
import * as sdk from '@a2a-js/sdk';
import type { AgentExecutionEvent } from '@a2a-js/sdk/server';
import type { CompatEvent } from './event-applier.js';

export const toSdkMessage = (message: Message): sdk.Message => sdk.Message.fromJSON(message);
export const toSdkTask = (task: Task): sdk.Task => sdk.Task.fromJSON(task);
export const toSdkCard = (card: CoreCard): sdk.AgentCard => sdk.AgentCard.fromJSON(card);
export const fromSdkCard = (card: sdk.AgentCard): CoreCard => sdk.AgentCard.toJSON(card) as CoreCard;
export const toSdkPushConfig = (config: TaskPushNotificationConfig): sdk.TaskPushNotificationConfig =>
  sdk.TaskPushNotificationConfig.fromJSON(config);
export const fromSdkPushConfig = (config: sdk.TaskPushNotificationConfig): TaskPushNotificationConfig =>
  sdk.TaskPushNotificationConfig.toJSON(config) as TaskPushNotificationConfig;

/**
 * One published event, as v1.0 objects; anything unreadable becomes `{ kind: 'invalid' }`. As the 1.x SDK's
 * ResultManager does, an update's metadata is also merged into the task's own (0.3.x keeps it on the event only).
 */
export function fromSdkEvent(event: AgentExecutionEvent): CompatEvent {
  const kind = (event as { kind?: unknown } | null)?.kind;
  const data = (event as { data?: unknown } | null)?.data;
  if (typeof data !== 'object' || data === null)
    return { kind: 'invalid', reason: `an event of kind '${kind}' has no data` };
  try {
    switch (kind) {
      case 'message':
        return { kind: 'message', message: sdk.Message.toJSON(data as sdk.Message) as Message };
      case 'task':
        return { kind: 'task', task: sdk.Task.toJSON(data as sdk.Task) as Task };
      case 'statusUpdate': {
        const update = sdk.TaskStatusUpdateEvent.toJSON(data as sdk.TaskStatusUpdateEvent) as {
          taskId?: string;
          status?: Task['status'];
          metadata?: Record<string, unknown>;
        };
        if (!update.status?.state) return { kind: 'invalid', reason: 'a status update has no state' };
        const { taskId = '', status, metadata } = update;
        return { kind: 'status', taskId, status, metadata, taskMetadata: metadata };
      }
      case 'artifactUpdate': {
        const update = sdk.TaskArtifactUpdateEvent.toJSON(data as sdk.TaskArtifactUpdateEvent) as {
          taskId?: string;
          artifact?: Task['artifacts'] extends (infer A)[] | undefined ? A : never;
          append?: boolean;
          lastChunk?: boolean;
          metadata?: Record<string, unknown>;
        };
        if (!update.artifact?.artifactId) return { kind: 'invalid', reason: 'an artifact update has no artifact id' };
        const { taskId = '', artifact, append, lastChunk, metadata } = update;
        return { kind: 'artifact', taskId, artifact, append, lastChunk, metadata, taskMetadata: metadata };
      }
      default:
        return { kind: 'invalid', reason: `unknown event kind '${String(kind)}'` };
    }
  } catch (error) {
    return { kind: 'invalid', reason: `a '${String(kind)}' event could not be read (${(error as Error).message})` };
  }
}
