import type { Message, StreamResponse, Task, TaskArtifactUpdateEvent, TaskStatusUpdateEvent } from '@a2a/core';

export interface NotificationPayloads {
  task: Task;
  message: Message;
  statusUpdate: TaskStatusUpdateEvent;
  artifactUpdate: TaskArtifactUpdateEvent;
}
export type NotificationKind = keyof NotificationPayloads;

/** A verified, parsed push notification (always in v1.0 shape, whatever the sender spoke). */
export interface Notification<K extends NotificationKind = NotificationKind> {
  kind: K;
  payload: NotificationPayloads[K];
  /** The whole v1.0 StreamResponse. */
  body: StreamResponse;
  taskId: string;
  contextId: string | undefined;
  /** De-duplication key: the JWT `jti`, the `webhook-id`, or the `A2A-Notification-Id` header. */
  id: string | undefined;
  /** Position in the task's event log when the sender says (`A2A-Notification-Seq`): apply updates monotonically. */
  seq: number | undefined;
  /** The wire version of the body. */
  protocolVersion: '1.0' | '0.3';
  /** What proved the sender: every verifier that passed. */
  verifiedBy: ('token' | 'authorization' | 'jwt' | 'standard-webhooks')[];
  headers: Headers;
}

export type AnyNotification = { [K in NotificationKind]: Notification<K> }[NotificationKind];

export function toNotification(
  body: StreamResponse,
): Pick<AnyNotification, 'kind' | 'payload' | 'taskId' | 'contextId'> {
  if ('task' in body) return { kind: 'task', payload: body.task, taskId: body.task.id, contextId: body.task.contextId };
  if ('statusUpdate' in body) {
    return {
      kind: 'statusUpdate',
      payload: body.statusUpdate,
      taskId: body.statusUpdate.taskId,
      contextId: body.statusUpdate.contextId,
    };
  }
  if ('artifactUpdate' in body) {
    const e = body.artifactUpdate;
    return { kind: 'artifactUpdate', payload: e, taskId: e.taskId, contextId: e.contextId };
  }
  return {
    kind: 'message',
    payload: body.message,
    taskId: body.message.taskId ?? '',
    contextId: body.message.contextId,
  };
}
