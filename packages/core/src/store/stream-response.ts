import type { StreamResponse, TaskArtifactUpdateEvent, TaskStatusUpdateEvent } from '../schemas/task.js';
import type { TaskEventRecord } from './task-store.js';

/**
 * The wire form of a log entry; `undefined` for entries clients do not see (their own messages, and task metadata
 * changes: the task snapshots carry those).
 */
export function toStreamResponse(record: TaskEventRecord): StreamResponse | undefined {
  const { event, taskId, contextId } = record;
  // Field by field: conditional spreads cost a fresh hidden class per event on Node 20.
  switch (event.kind) {
    case 'status': {
      const statusUpdate: TaskStatusUpdateEvent = { taskId, contextId, status: event.status };
      if (event.metadata) statusUpdate.metadata = event.metadata;
      return { statusUpdate };
    }
    case 'artifact': {
      const artifactUpdate: TaskArtifactUpdateEvent = { taskId, contextId, artifact: event.artifact };
      if (event.append !== undefined) artifactUpdate.append = event.append;
      if (event.lastChunk !== undefined) artifactUpdate.lastChunk = event.lastChunk;
      if (event.metadata) artifactUpdate.metadata = event.metadata;
      return { artifactUpdate };
    }
    case 'history':
    case 'metadata':
      return undefined;
  }
}

/**
 * The log sequence number of a streamed response (sent as the SSE `id`, so a client can resume after it). A hidden
 * property, not a WeakMap: a WeakMap entry per event cost ~0.5 µs (and young-GC work); non-enumerable, so JSON, spreads
 * and deep-equality checks do not see it. See docs/performance.md, "Hot-path tricks".
 */
const SEQ = Symbol('a2a.seq');
/** One descriptor for every event, its value set for the call (a descriptor object per event less, ~80 ns). */
const SEQ_DESCRIPTOR: PropertyDescriptor = { value: 0, writable: true, configurable: true };
export function withSeq(response: StreamResponse, seq: number): StreamResponse {
  SEQ_DESCRIPTOR.value = seq;
  Object.defineProperty(response, SEQ, SEQ_DESCRIPTOR);
  return response;
}
export const seqOf = (response: StreamResponse): number | undefined =>
  (response as StreamResponse & { [SEQ]?: number })[SEQ];

/** `Last-Event-ID` as a sequence number; `undefined` when absent or not one this server could have sent. */
export function parseEventId(value: string | null | undefined): number | undefined {
  if (!value || !/^\d{1,15}$/.test(value.trim())) return undefined;
  return Number(value.trim());
}
