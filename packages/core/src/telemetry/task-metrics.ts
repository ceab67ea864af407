import type { TaskState } from '../schemas/task.js';
import { ATTR } from './attributes.js';
import { secondsSince, telemetry } from './telemetry.js';

/** A task reached a final state; `since` is the `performance.now()` of its creation (or of the turn that ended it). */
export function countFinished(state: TaskState, since?: number): void {
  const metrics = telemetry()?.metrics;
  if (!metrics) return;
  const attributes = { [ATTR.taskState]: state };
  metrics.tasksFinished.add(1, attributes);
  if (since !== undefined) metrics.taskDuration.record(secondsSince(since), attributes);
}

/** A task was created. */
export function countCreated(): void {
  telemetry()?.metrics?.tasksCreated.add(1);
}
