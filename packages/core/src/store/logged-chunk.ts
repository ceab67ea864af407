import type { Part } from '../schemas/message.js';
import type { TaskEvent } from '../task-state.js';

type ArtifactEvent = Extract<TaskEvent, { kind: 'artifact' }>;

/**
 * A streaming agent's usual event, one part added to an artifact, as the in-memory live log holds it: one 64 B
 * object instead of the event, its artifact and a one-element parts array (~170 B; ~1.6 KB per open stream with a
 * full log, docs/performance.md "Scale"). The part itself is the one the task holds.
 */
export class LoggedChunk {
  constructor(
    readonly artifactId: string,
    readonly name: string | undefined,
    readonly part: Part,
    readonly append: boolean | undefined,
    readonly lastChunk: boolean | undefined,
  ) {}
}

const EVENT_KEYS = new Set(['kind', 'artifact', 'append', 'lastChunk']);
const ARTIFACT_KEYS = new Set(['artifactId', 'parts', 'name']);

/**
 * What the live log keeps of `event`: a {@link LoggedChunk} when that loses nothing (no field beyond those it has,
 * none set to `undefined`, one part), else the event itself.
 */
export function logEntry(event: TaskEvent): TaskEvent | LoggedChunk {
  if (event.kind !== 'artifact') return event;
  const { artifact } = event;
  if (artifact.parts.length !== 1 || !onlyDefined(event, EVENT_KEYS) || !onlyDefined(artifact, ARTIFACT_KEYS)) {
    return event;
  }
  return new LoggedChunk(artifact.artifactId, artifact.name, artifact.parts[0] as Part, event.append, event.lastChunk);
}

/** The event a log entry stands for, rebuilt field by field in the order the execution builds it. */
export function loggedEvent(entry: TaskEvent | LoggedChunk): TaskEvent {
  if (!(entry instanceof LoggedChunk)) return entry;
  const artifact = {} as ArtifactEvent['artifact'];
  artifact.artifactId = entry.artifactId;
  artifact.parts = [entry.part];
  if (entry.name !== undefined) artifact.name = entry.name;
  const event = {} as ArtifactEvent;
  event.kind = 'artifact';
  event.artifact = artifact;
  if (entry.append !== undefined) event.append = entry.append;
  if (entry.lastChunk !== undefined) event.lastChunk = entry.lastChunk;
  return event;
}

/** Whether every own field of `value` is one of `keys` and set (for…in: no array made per event). */
function onlyDefined(value: object, keys: Set<string>): boolean {
  for (const key in value) {
    if (!keys.has(key) || (value as Record<string, unknown>)[key] === undefined) return false;
  }
  return true;
}
