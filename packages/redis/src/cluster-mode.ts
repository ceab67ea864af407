import type { Task, TaskOwner, TaskQuery } from '@a2a/core';
import type { KeySpace } from './keys.js';
import type { ScriptName } from './scripts.js';

// The Cluster mode's status writes: the task's own script (CREATE_TASK or APPEND_PUBLISH, one slot) is the write and
// the source of truth; the owner's ListTasks entry and the coordinator's running-task mark are separate steps in their
// own slots (a Cluster refuses one script over the three). Their order makes a crash between them harmless:
// - a running mark ('1') goes out in the same turn as the task's script: a process that dies right after creating a
//   task still leaves the janitor a candidate to fail (a mark for a task that was not written is dropped by the
//   janitor, which reads the task first). A '0' goes after the write: a crash leaves a '1' that the janitor drops.
// - the ListTasks entry goes after the write, version-ordered (INDEX's 'w', 'c' for a create). Between the two, a
//   ListTasks elsewhere sees the entry of the previous status (or none, for a create that has not returned yet), and
//   the page's tasks are read fresh anyway. A crash between them leaves the entry a status behind: the task's next
//   status write fixes it, and so does any ListTasks page that shows it (repairPage: the entry's version is compared
//   with the task's, filters are checked on the task as stored, and an entry whose task is gone is dropped).
// docs/performance.md, "Nineteenth session: Redis Cluster".

type Run = (name: ScriptName, keys: readonly string[], args: readonly (string | number)[]) => Promise<unknown>;

export interface IndexEntry {
  taskId: string;
  owner: TaskOwner;
  contextId: string;
  version: number;
  task: Task;
  /** ms until a finished task expires, or 0. */
  ttl: number;
}

/** The running-task mark as its own step ('1' running since now, '0' not running, '' nothing to send). */
export function markRunning(run: Run, keys: KeySpace, taskId: string, mark: '' | '1' | '0'): Promise<unknown> {
  if (mark === '') return Promise.resolve();
  return run('a2aMarkRunning', [keys.coord().running], [taskId, mark]);
}

/** The owner's ListTasks entry as its own step, applied only when newer than the entry (INDEX's 'w' and 'c'). */
export function indexEntry(run: Run, keys: KeySpace, entry: IndexEntry, mode: 'w' | 'c'): Promise<unknown> {
  const o = keys.owner(entry.owner);
  const { status } = entry.task;
  return run(
    'a2aIndex',
    [o.list, o.meta, o.expiry, o.seq],
    [entry.taskId, entry.version, status.state, status.timestamp ?? '', entry.contextId, entry.ttl, mode, 0],
  );
}

/**
 * A ListTasks page as stored: entries left behind by a crash between a task's write and its index step (version
 * older than the task's) are rewritten from the task and their tasks filtered again; entries whose task is gone are
 * dropped. Returns the tasks of the page that match the query.
 */
export async function repairPage(
  run: Run,
  keys: KeySpace,
  hmget: (key: string, fields: string[]) => Promise<(string | null)[]>,
  owner: TaskOwner,
  query: TaskQuery,
  ids: string[],
  tasks: ({ task: Task; version: number; owner: TaskOwner } | undefined)[],
  ttlFor: (task: Task) => number,
): Promise<Task[]> {
  if (ids.length === 0) return [];
  const o = keys.owner(owner);
  const metas = await hmget(o.meta, ids);
  const out: Task[] = [];
  const repairs: Promise<unknown>[] = [];
  ids.forEach((taskId, i) => {
    const stored = tasks[i];
    const meta = metas[i];
    const indexed = meta ? Number((JSON.parse(meta) as { v: number }).v) : undefined;
    if (!stored) {
      // Gone (expired before a ListTasks purged its entry): dropped, unless a new task of the id indexed meanwhile.
      if (indexed !== undefined)
        repairs.push(run('a2aIndex', [o.list, o.meta, o.expiry, o.seq], [taskId, 0, '', '', '', 0, 'd', indexed]));
      return;
    }
    if (stored.owner !== owner) return;
    if (indexed !== undefined && indexed < stored.version) {
      const entry = { taskId, owner, contextId: stored.task.contextId, version: stored.version, task: stored.task };
      repairs.push(indexEntry(run, keys, { ...entry, ttl: ttlFor(stored.task) }, 'w'));
      if (!matches(stored.task, query)) return;
    }
    out.push(stored.task);
  });
  await Promise.all(repairs.map((repair) => repair.catch(() => {})));
  return out;
}

/** The ListTasks filters (LIST's, in scripts.ts) on a task as stored. */
function matches(task: Task, query: TaskQuery): boolean {
  return (
    (query.contextId === undefined || task.contextId === query.contextId) &&
    (query.status === undefined || task.status.state === query.status) &&
    (query.statusTimestampAfter === undefined || (task.status.timestamp ?? '') >= query.statusTimestampAfter)
  );
}
