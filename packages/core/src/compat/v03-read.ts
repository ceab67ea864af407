// Reading v0.3 objects into v1.0 ones, checked by the v1.0 Zod schemas: apart from v03-translate.ts (the mapping
// itself), which the engine loads at start-up (the push sender writes v0.3 bodies), so that Zod is not loaded with it.
// The client, the webhook receiver and the SDK compat layer take these from `@a2a/core/internal`.
import type { z } from 'zod';
import { fromZodError } from '../errors.js';
import { isObject } from '../is-object.js';
import { type Message, MessageSchema } from '../schemas/message.js';
import {
  type Artifact,
  ArtifactSchema,
  type StreamResponse,
  StreamResponseSchema,
  type Task,
  TaskSchema,
} from '../schemas/task.js';
import { badShape, compact } from './shape.js';
import { artifactFromV03, messageFromV03, statusFromV03, taskFromV03 } from './v03-translate.js';
import type { V03Artifact, V03Message, V03StreamResult, V03Task } from './v03-types.js';

function parsed<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const result = schema.safeParse(value);
  if (!result.success) {
    const error = fromZodError(result.error);
    error.message = `${error.message} (request read as A2A 0.3)`;
    throw error;
  }
  return result.data;
}

export const fromV03Message = (message: V03Message | unknown): Message =>
  parsed(MessageSchema, messageFromV03(message, 'message'));
export const fromV03Task = (task: V03Task | unknown): Task => parsed(TaskSchema, taskFromV03(task, 'task'));
export const fromV03Artifact = (artifact: V03Artifact | unknown): Artifact =>
  parsed(ArtifactSchema, artifactFromV03(artifact, 'artifact'));

/** A v0.3 stream result (or webhook body) as a v1.0 StreamResponse. */
export function fromV03StreamResult(result: V03StreamResult | unknown): StreamResponse {
  if (!isObject(result)) throw badShape('0.3', 'result', 'must be an object');
  switch (result.kind) {
    case 'task':
      return { task: fromV03Task(result) };
    case 'message':
      return { message: fromV03Message(result) };
    case 'status-update':
      return parsed(StreamResponseSchema, {
        statusUpdate: compact({
          taskId: result.taskId,
          contextId: result.contextId,
          status: statusFromV03(result.status, 'status'),
          metadata: result.metadata ?? undefined,
        }),
      });
    case 'artifact-update':
      return parsed(StreamResponseSchema, {
        artifactUpdate: compact({
          taskId: result.taskId,
          contextId: result.contextId,
          artifact: artifactFromV03(result.artifact, 'artifact'),
          append: result.append ?? undefined,
          lastChunk: result.lastChunk ?? undefined,
          metadata: result.metadata ?? undefined,
        }),
      });
    default:
      throw badShape('0.3', 'kind', `unknown result kind ${JSON.stringify(result.kind)}`);
  }
}
