import type { StreamResponse } from '../schemas/task.js';
import type { TaskEventRecord } from '../store/task-store.js';

/** The wire form of a log entry; `undefined` for entries clients do not see (their own messages). */
export function toStreamResponse(record: TaskEventRecord): StreamResponse | undefined {
  const { event, taskId, contextId } = record;
  switch (event.kind) {
    case 'status':
      return {
        statusUpdate: { taskId, contextId, status: event.status, ...(event.metadata && { metadata: event.metadata }) },
      };
    case 'artifact':
      return {
        artifactUpdate: {
          taskId,
          contextId,
          artifact: event.artifact,
          ...(event.append !== undefined && { append: event.append }),
          ...(event.lastChunk !== undefined && { lastChunk: event.lastChunk }),
          ...(event.metadata && { metadata: event.metadata }),
        },
      };
    case 'history':
      return undefined;
  }
}

/** The log sequence number of a streamed response (sent as the SSE `id`, so a client can resume after it). */
const sequences = new WeakMap<StreamResponse, number>();
export function withSeq(response: StreamResponse, seq: number): StreamResponse {
  sequences.set(response, seq);
  return response;
}
export const seqOf = (response: StreamResponse): number | undefined => sequences.get(response);

/** `Last-Event-ID` as a sequence number; `undefined` when absent or not one this server could have sent. */
export function parseEventId(value: string | null | undefined): number | undefined {
  if (!value || !/^\d{1,15}$/.test(value.trim())) return undefined;
  return Number(value.trim());
}
