// Key layout. Every key of one task shares the hash tag `{t:<id>}`, every key of one owner's ListTasks index the tag
// `{o:<owner>}`, and the coordination keys (leases, running tasks) the tag `{coord}`. Every script and multi-key
// command touches keys of one tag only, except the standalone mode's status writes (scripts.ts: the task, its owner's
// index and its running mark in one script) and its stream tail's XREAD; the Cluster mode sends neither (README,
// "Redis Cluster").
// Ids and owners are escaped (`%`, `{`, `}`), so a `}` in an id cannot end its hash tag early: one-to-one, and
// ordinary ids are unchanged.

const escapeId = (value: string): string =>
  /[%{}]/.test(value) ? value.replace(/[%{}]/g, (c) => (c === '%' ? '%25' : c === '{' ? '%7B' : '%7D')) : value;

export interface TaskKeys {
  /** Hash: o (owner), c (contextId), s (state), ts (status timestamp), v (version), sv (snapshot version), j (task). */
  task: string;
  /** Stream: one entry per event, id `<seq>-0`, fields c (contextId), s (state after it), e (event JSON). */
  log: string;
  /** Hash: push config id → config JSON. */
  push: string;
  /** Sorted set: push config id → creation order (ListTaskPushNotificationConfigs keeps it). */
  pushOrder: string;
  /** Hash: push config id → delivery state JSON. */
  pushState: string;
  /** Shard channel (Cluster mode): each append publishes its seq here (SPUBLISH, in the task's slot). */
  wake: string;
}

export interface OwnerKeys {
  /** Sorted set: task id → list sequence (bumped on every status change): ListTasks' order and cursor. */
  list: string;
  /** Hash: task id → `{v, s, t, c}` (version, state, status timestamp, contextId) for the filters. */
  meta: string;
  /** Sorted set: task id → when the finished task expires (ms): purged from the index by the next list. */
  expiry: string;
  /** Counter behind `list`'s scores. */
  seq: string;
}

export interface CoordKeys {
  /** Sorted set: task id → lease expiry (ms, Redis clock). */
  leases: string;
  /** Hash: task id → instance holding its lease. */
  holders: string;
  /** Sorted set: SUBMITTED/WORKING task id → when its status last changed (ms): the janitor's "no lease" check. */
  running: string;
}

export class KeySpace {
  constructor(readonly prefix: string) {}

  task(taskId: string): TaskKeys {
    const base = `${this.prefix}:{t:${escapeId(taskId)}}`;
    return {
      task: base,
      log: `${base}:log`,
      push: `${base}:push`,
      pushOrder: `${base}:push-order`,
      pushState: `${base}:push-state`,
      wake: `${base}:wake`,
    };
  }

  owner(owner: string): OwnerKeys {
    const base = `${this.prefix}:{o:${escapeId(owner)}}`;
    return { list: `${base}:list`, meta: `${base}:meta`, expiry: `${base}:expiry`, seq: `${base}:seq` };
  }

  coord(): CoordKeys {
    const base = `${this.prefix}:{coord}`;
    return { leases: `${base}:leases`, holders: `${base}:holders`, running: `${base}:running` };
  }

  /** Pub/sub channel of cross-instance cancels (payload: the task id). */
  get cancelChannel(): string {
    return `${this.prefix}:cancel`;
  }
}
