import { fromV03StreamResult, type V03StreamResult } from '@a2a/core/internal';
import type { CompatEvent } from '../event-applier.js';

/** One event a 0.3.x executor published (a kind-tagged v0.3 object), as v1.0 objects; `final` is not needed. */
export function fromV03Event(event: V03StreamResult): CompatEvent {
  let result: ReturnType<typeof fromV03StreamResult>;
  try {
    result = fromV03StreamResult(event);
  } catch (error) {
    return { kind: 'invalid', reason: (error as Error).message };
  }
  if ('message' in result) return { kind: 'message', message: result.message };
  if ('task' in result) return { kind: 'task', task: result.task };
  if ('statusUpdate' in result) {
    const { taskId, status, metadata } = result.statusUpdate;
    return { kind: 'status', taskId, status, metadata };
  }
  const { taskId, artifact, append, lastChunk, metadata } = result.artifactUpdate;
  return { kind: 'artifact', taskId, artifact, append, lastChunk, metadata };
}
