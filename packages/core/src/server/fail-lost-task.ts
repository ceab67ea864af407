import { newId } from '../ids.js';
import type { TaskState } from '../schemas/task.js';
import type { TaskStore } from '../store/task-store.js';

/** States in which an execution still owes the task progress: only those fail when their instance is lost. */
const RUNNING: ReadonlySet<TaskState> = new Set(['TASK_STATE_SUBMITTED', 'TASK_STATE_WORKING']);

/**
 * A lease janitor's verdict on a task whose execution lease expired (`holder`: the instance that stopped renewing
 * it) or that runs with no lease at all (`holder` undefined): a running task moves to FAILED with a version-checked
 * append, so two janitors cannot both act. `'failed'`: this call failed it; `'not-running'`: gone, finished or
 * waiting for input (left alone); `'moved'`: another janitor or the task itself wrote first (look again next tick).
 */
export async function failLostTask(
  store: TaskStore,
  taskId: string,
  holder: string | undefined,
): Promise<'failed' | 'not-running' | 'moved'> {
  const stored = await store.get(taskId);
  if (!stored || !RUNNING.has(stored.task.status.state)) return 'not-running';
  try {
    await store.append(taskId, stored.version, {
      kind: 'status',
      status: {
        state: 'TASK_STATE_FAILED',
        timestamp: new Date().toISOString(),
        message: {
          messageId: newId(),
          role: 'ROLE_AGENT',
          taskId,
          contextId: stored.task.contextId,
          parts: [
            {
              text:
                holder === undefined
                  ? 'Executor lost: no running instance holds an execution lease for the task'
                  : `Executor lost: instance ${holder} stopped renewing its execution lease`,
            },
          ],
        },
      },
    });
    return 'failed';
  } catch {
    return 'moved';
  }
}
