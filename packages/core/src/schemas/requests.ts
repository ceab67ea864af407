import { z } from 'zod';
import { boundedId, requiredId } from './id.js';
import { MessageSchema } from './message.js';
import { hasTaskId, unsetStateFilter, unsetZeroPageSize } from './plain.js';
import { bool, emptyList, emptyString, int32, protoMessage, struct, timestamp } from './proto-json.js';
import { TaskPushNotificationConfigSchema } from './push-config.js';
import { TaskSchema, TaskStateSchema } from './task.js';
import type {
  CancelTaskRequest,
  GetTaskPushNotificationConfigRequest,
  GetTaskRequest,
  ListTaskPushNotificationConfigsRequest,
  ListTasksRequest,
  ListTasksResponse,
  SendMessageConfiguration,
  SendMessageRequest,
  SubscribeToTaskRequest,
} from './types.generated.js';

// The protocol types, plain (generated from these schemas: scripts/generate-types.mjs).
export type {
  CancelTaskRequest,
  GetTaskPushNotificationConfigRequest,
  GetTaskRequest,
  ListTaskPushNotificationConfigsRequest,
  ListTasksRequest,
  ListTasksResponse,
  SendMessageConfiguration,
  SendMessageRequest,
  SubscribeToTaskRequest,
};

const tenant = boundedId.optional();
const id = requiredId;
/** `historyLength`: unset = everything, 0 = none, n = the n most recent. */
const historyLength = int32.pipe(z.number().min(0, { message: 'must not be negative' })).optional();
/** A task-state filter: the unset values mean "no filter" (`unsetStateFilter`); any other name must be a real state. */
const stateFilter = z.preprocess(unsetStateFilter, TaskStateSchema.optional());
const pageSize = int32.pipe(z.number().min(1).max(100, { message: 'must be between 1 and 100' })).optional();
/** A plain (not `optional`) int32 page size: 0 is its unset value. */
const plainPageSize = z.preprocess(unsetZeroPageSize, pageSize);

export const SendMessageConfigurationSchema = protoMessage({
  acceptedOutputModes: z.array(z.string()).optional(),
  taskPushNotificationConfig: TaskPushNotificationConfigSchema.optional(),
  historyLength,
  returnImmediately: bool.optional(),
});

export const SendMessageRequestSchema = protoMessage({
  tenant,
  message: MessageSchema,
  configuration: SendMessageConfigurationSchema.optional(),
  metadata: struct.optional(),
});

export const GetTaskRequestSchema = protoMessage({ tenant, id, historyLength });

export const ListTasksRequestSchema = protoMessage({
  tenant,
  contextId: boundedId.optional(),
  status: stateFilter,
  pageSize,
  pageToken: z.string().optional(),
  historyLength,
  statusTimestampAfter: timestamp.optional(),
  includeArtifacts: bool.optional(),
});

export const CancelTaskRequestSchema = protoMessage({ tenant, id, metadata: struct.optional() });

export const SubscribeToTaskRequestSchema = protoMessage({ tenant, id });

export const CreateTaskPushNotificationConfigRequestSchema = TaskPushNotificationConfigSchema.refine(hasTaskId, {
  message: 'taskId is required',
  path: ['taskId'],
});

export const GetTaskPushNotificationConfigRequestSchema = protoMessage({ tenant, taskId: id, id });
export const DeleteTaskPushNotificationConfigRequestSchema = GetTaskPushNotificationConfigRequestSchema;
export type DeleteTaskPushNotificationConfigRequest = GetTaskPushNotificationConfigRequest;

export const ListTaskPushNotificationConfigsRequestSchema = protoMessage({
  tenant,
  taskId: id,
  pageSize: plainPageSize,
  pageToken: z.string().optional(),
});

export const GetExtendedAgentCardRequestSchema = protoMessage({ tenant });

// Responses (for clients and tests; the server builds them directly).
export const SendMessageResponseSchema = protoMessage({
  task: TaskSchema.optional(),
  message: MessageSchema.optional(),
}).refine((r) => (r.task === undefined) !== (r.message === undefined), {
  message: 'must have exactly one of task or message',
});

export const ListTasksResponseSchema = protoMessage({
  tasks: emptyList(TaskSchema),
  nextPageToken: emptyString,
  pageSize: int32.default(0),
  totalSize: int32.default(0),
});

export const ListTaskPushNotificationConfigsResponseSchema = protoMessage({
  configs: emptyList(TaskPushNotificationConfigSchema),
  nextPageToken: z.string().optional(),
});
