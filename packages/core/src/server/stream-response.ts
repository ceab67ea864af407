import type { StreamResponse } from '../schemas/task.js';
import type { TaskEventRecord } from '../store/task-store.js';

/** The wire form of a log entry; `undefined` for entries clients do not see (their own messages). */
export function toStreamResponse(record: TaskEventRecord): StreamResponse | undefined {
  const { event, taskId, contextId } = record;
  switch (event.kind) {
    case 'status':
      return { statusUpdate: { taskId, contextId, status: event.status, ...(event.metadata && { metadata: event.metadata }) } };
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
