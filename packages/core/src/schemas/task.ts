import { z } from 'zod';
import { type Message, MessageSchema, PartSchema } from './message.js';
import { asIs, isRealTaskState } from './plain.js';
import { bool, protoEnum, protoMessage, struct, timestamp } from './proto-json.js';
import type { Artifact, Task, TaskArtifactUpdateEvent, TaskStatus, TaskStatusUpdateEvent } from './types.generated.js';

// The protocol types, plain (generated from these schemas: scripts/generate-types.mjs).
export type { Artifact, Task, TaskArtifactUpdateEvent, TaskStatus, TaskStatusUpdateEvent };

/** Proto order: the index is the enum number. */
export const TASK_STATES = [
  'TASK_STATE_UNSPECIFIED',
  'TASK_STATE_SUBMITTED',
  'TASK_STATE_WORKING',
  'TASK_STATE_COMPLETED',
  'TASK_STATE_FAILED',
  'TASK_STATE_CANCELED',
  'TASK_STATE_INPUT_REQUIRED',
  'TASK_STATE_REJECTED',
  'TASK_STATE_AUTH_REQUIRED',
] as const;
export const TaskStateEnum = protoEnum(TASK_STATES);
/** A real task state (UNSPECIFIED is never a task's state). */
export type TaskState = Exclude<(typeof TASK_STATES)[number], 'TASK_STATE_UNSPECIFIED'>;
export const TaskStateSchema = TaskStateEnum.refine(isRealTaskState, {
  message: 'TASK_STATE_UNSPECIFIED is not a task state',
}).transform(asIs as (s: string) => TaskState);

export const TaskStatusSchema = protoMessage({
  state: TaskStateSchema,
  message: MessageSchema.optional(),
  timestamp: timestamp.optional(),
});

export const ArtifactSchema = protoMessage({
  artifactId: z.string().min(1),
  name: z.string().optional(),
  description: z.string().optional(),
  parts: z.array(PartSchema).min(1),
  metadata: struct.optional(),
  extensions: z.array(z.string()).optional(),
});

export const TaskSchema = protoMessage({
  id: z.string().min(1),
  contextId: z.string().min(1),
  status: TaskStatusSchema,
  artifacts: z.array(ArtifactSchema).optional(),
  history: z.array(MessageSchema).optional(),
  metadata: struct.optional(),
});

export const TaskStatusUpdateEventSchema = protoMessage({
  taskId: z.string().min(1),
  contextId: z.string().min(1),
  status: TaskStatusSchema,
  metadata: struct.optional(),
});

export const TaskArtifactUpdateEventSchema = protoMessage({
  taskId: z.string().min(1),
  contextId: z.string().min(1),
  artifact: ArtifactSchema,
  append: bool.optional(),
  lastChunk: bool.optional(),
  metadata: struct.optional(),
});

/** StreamResponse: exactly one payload member (also the push notification body). */
export type StreamResponse =
  | { task: Task }
  | { message: Message }
  | { statusUpdate: TaskStatusUpdateEvent }
  | { artifactUpdate: TaskArtifactUpdateEvent };

export const StreamResponseSchema = protoMessage({
  task: TaskSchema.optional(),
  message: MessageSchema.optional(),
  statusUpdate: TaskStatusUpdateEventSchema.optional(),
  artifactUpdate: TaskArtifactUpdateEventSchema.optional(),
})
  .refine((r) => [r.task, r.message, r.statusUpdate, r.artifactUpdate].filter((x) => x !== undefined).length === 1, {
    message: 'must have exactly one of task, message, statusUpdate or artifactUpdate',
  })
  .transform((r) => r as StreamResponse);

/** SendMessageResponse: a task or a direct message. */
export type SendMessageResponse = { task: Task } | { message: Message };
