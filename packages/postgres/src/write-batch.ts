import type pg from 'pg';
import { isConnectionError, storeError } from './errors.js';

/**
 * A new task row: version 1, or version 2 with its first event (`event`, seq 2) in the same commit. Resolves `true`
 * when inserted, `false` when the id exists (then nothing is written).
 */
export interface CreateWrite {
  id: string;
  owner: string;
  contextId: string;
  state: string;
  timestamp: string;
  task: string;
  event?: { kind: string; state: string; event: string } | undefined;
}

/** A version-checked task update with its event. Resolves `true` when written, `false` on a lost race. */
export interface AppendWrite {
  id: string;
  expectedVersion: number;
  /** The task after the event, or `null` to leave the stored one behind (readers apply the log after it). */
  task: string | null;
  state: string;
  timestamp: string;
  /** Status changes move the task in the ListTasks order. */
  bumpListSeq: boolean;
  kind: string;
  event: string;
  /** The NOTIFY payload sent once it is committed. */
  notice: string;
}

/** An execution lease taken or renewed (`ttlMs`), or released (`ttlMs` undefined). */
export interface LeaseWrite {
  id: string;
  instanceId: string;
  ttlMs?: number | undefined;
  /** Expired at once (handed over at shutdown) rather than deleted. */
  handOver?: boolean | undefined;
}

type Write =
  | { type: 'create'; row: CreateWrite; done: Settle }
  | { type: 'append'; row: AppendWrite; done: Settle }
  | { type: 'lease'; row: LeaseWrite; done: Settle };

interface Settle {
  resolve(ok: boolean): void;
  reject(error: unknown): void;
}

/**
 * Every write of one batch in one statement, so one round trip and one commit serve many requests. Task updates are version-checked row by row; an event row is inserted only for an update that matched,
 * with `seq` = the new version. Once committed, the appends' NOTIFYs `{seq}:{taskId}` go out (see NOTIFY_SQL).
 */
const BATCH_SQL = `
WITH created AS (
  INSERT INTO a2a_tasks (id, owner, context_id, state, status_timestamp, version, task)
  SELECT c.id, c.owner, c.context_id, c.state, c.ts, c.version, c.task
    FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::json[], $7::bigint[])
      AS c(id, owner, context_id, state, ts, task, version)
  ON CONFLICT (id) DO NOTHING
  RETURNING id
), first_events AS (
  INSERT INTO a2a_task_events (task_id, seq, kind, state, event)
  SELECT e.id, 2, e.kind, e.state, e.event
    FROM unnest($8::text[], $9::text[], $10::text[], $11::json[]) AS e(id, kind, state, event)
    JOIN created USING (id)
), updated AS (
  UPDATE a2a_tasks t
     SET task = COALESCE(u.task, t.task), state = u.state, status_timestamp = u.ts, version = t.version + 1,
         snapshot_version = CASE WHEN u.task IS NULL THEN COALESCE(t.snapshot_version, t.version) END, updated_at = now(),
         list_seq = CASE WHEN u.bump THEN nextval('a2a_task_list_seq') ELSE t.list_seq END
    FROM unnest($12::text[], $13::bigint[], $14::json[], $15::text[], $16::text[], $17::boolean[], $18::text[], $19::json[])
      AS u(id, expected, task, state, ts, bump, kind, event)
   WHERE t.id = u.id AND t.version = u.expected
  RETURNING t.id, t.version, u.kind, u.state, u.event
), inserted AS (
  INSERT INTO a2a_task_events (task_id, seq, kind, state, event)
  SELECT id, version, kind, state, event FROM updated
  RETURNING task_id, seq
), leased AS (
  INSERT INTO a2a_execution_leases (task_id, instance_id, expires_at)
  SELECT l.id, l.instance_id, now() + l.ttl * interval '1 millisecond'
    FROM unnest($20::text[], $21::text[], $22::bigint[]) AS l(id, instance_id, ttl)
  ON CONFLICT (task_id) DO UPDATE SET instance_id = EXCLUDED.instance_id, expires_at = EXCLUDED.expires_at
), handed AS (
  UPDATE a2a_execution_leases l SET expires_at = '-infinity'
    FROM unnest($23::text[], $24::text[]) AS h(id, instance_id)
   WHERE l.task_id = h.id AND l.instance_id = h.instance_id
), released AS (
  DELETE FROM a2a_execution_leases l
   USING unnest($25::text[], $26::text[]) AS r(id, instance_id)
   WHERE l.task_id = r.id AND l.instance_id = r.instance_id
)
SELECT id, 0::bigint AS seq FROM created
UNION ALL
SELECT task_id, seq FROM inserted`;

/**
 * The wake-ups of committed appends, many per statement. Apart from the writes: a transaction that NOTIFYs holds a
 * database-wide lock through its commit, so NOTIFY in the write transactions serialized every commit (and its WAL
 * flush) of every instance. A wake-up needs no flush of its own (its events are durable; a lost one is caught by the
 * subscribers' poll), hence `synchronous_commit` off for this transaction only.
 */
const NOTIFY_SQL = `SELECT set_config('synchronous_commit', 'off', true), pg_notify($1, p)
  FROM json_array_elements_text($2::json) AS p`;

export interface WriteBatcherOptions {
  /** Batches in flight at once (each holds a pool connection). Default 4. */
  maxInFlight?: number;
  /** Most writes per batch. Default 500. */
  maxBatch?: number;
  /** How long a lease write waits for a task write to ride along with. Default 50 ms. */
  leaseDelayMs?: number;
}

/**
 * Group commit on the client: writes issued while `maxInFlight` batches are in flight wait and go together in the
 * next one. At low load a write goes out at once (alone); under load, one round trip carries many. Nothing resolves
 * before its batch committed. One row per task (and per lease) per batch, and none while a batch holding that row is
 * in flight: a second write for the same row waits for the next batch after the first committed, so a batch never
 * updates a row twice and writes to one row commit in the order they were issued (a lease handed over at shutdown
 * must not be overtaken by the lease taken when its execution started). A batch the database refuses (a deadlock between two
 * instances' batches, a row it cannot store) is retried write by write, so one bad write fails alone.
 */
export class WriteBatcher {
  private queue: Write[] = [];
  private inFlight = 0;
  /** Rows (`task:<id>`, `lease:<id>`) written by a batch in flight: their next writes wait for it. */
  private readonly busy = new Set<string>();
  private scheduled = false;
  private leaseTimer: ReturnType<typeof setTimeout> | undefined;
  private notices: string[] = [];
  private notifying = false;
  private readonly maxInFlight: number;
  private readonly maxBatch: number;
  private readonly leaseDelayMs: number;

  constructor(
    private readonly pool: pg.Pool,
    private readonly channel: string,
    options: WriteBatcherOptions = {},
  ) {
    this.maxInFlight = options.maxInFlight ?? 4;
    this.maxBatch = options.maxBatch ?? 500;
    this.leaseDelayMs = options.leaseDelayMs ?? 50;
  }

  create(row: CreateWrite): Promise<boolean> {
    return this.add('create', row, true);
  }

  append(row: AppendWrite): Promise<boolean> {
    return this.add('append', row, true);
  }

  /** Lease writes are not urgent: they ride with the next task write, or go alone after `leaseDelayMs`. */
  lease(row: LeaseWrite): Promise<boolean> {
    return this.add('lease', row, false);
  }

  /** Sends what is queued now (close, tests). */
  async flush(): Promise<void> {
    const pending: Promise<unknown>[] = [];
    while (this.queue.length) pending.push(this.send(this.take()));
    await Promise.allSettled(pending);
  }

  private add<T extends Write['type']>(type: T, row: Extract<Write, { type: T }>['row'], urgent: boolean) {
    return new Promise<boolean>((resolve, reject) => {
      this.queue.push({ type, row, done: { resolve, reject } } as Write);
      if (urgent) this.schedule();
      else this.leaseTimer ??= setTimeout(() => this.onLeaseTimer(), this.leaseDelayMs);
    });
  }

  private onLeaseTimer(): void {
    this.leaseTimer = undefined;
    this.schedule();
  }

  /** After the current microtasks, so writes issued together share a batch. */
  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    queueMicrotask(() => {
      this.scheduled = false;
      this.pump();
    });
  }

  private pump(): void {
    while (this.inFlight < this.maxInFlight && this.queue.length) {
      const batch = this.take();
      if (batch.length === 0) break; // every queued write waits for a row in flight; its batch's end schedules again
      void this.send(batch);
    }
    if (this.queue.length === 0 && this.leaseTimer) {
      clearTimeout(this.leaseTimer);
      this.leaseTimer = undefined;
    }
  }

  /** Up to `maxBatch` writes, at most one per task row and one per lease row, none for a row in flight; the rest stay queued in order. */
  private take(): Write[] {
    const batch: Write[] = [];
    const rest: Write[] = [];
    for (const write of this.queue) {
      const row = rowKey(write);
      if (batch.length >= this.maxBatch || this.busy.has(row)) rest.push(write);
      else {
        this.busy.add(row);
        batch.push(write);
      }
    }
    this.queue = rest;
    return batch;
  }

  private async send(batch: Write[]): Promise<void> {
    if (batch.length === 0) return;
    this.inFlight++;
    try {
      await this.run(batch);
    } finally {
      this.inFlight--;
      for (const write of batch) this.busy.delete(rowKey(write));
      if (this.queue.length) this.schedule();
    }
  }

  private async run(batch: Write[]): Promise<void> {
    let result: pg.QueryResult<{ id: string; seq: string }>;
    try {
      result = await this.pool.query({ name: 'a2a_write_batch', text: BATCH_SQL, values: params(batch) });
    } catch (error) {
      if (batch.length > 1 && !isConnectionError(error)) {
        // One write the database refuses must not fail the others: each alone.
        await Promise.all(batch.map((write) => this.run([write])));
        return;
      }
      const failure = storeError(error);
      for (const write of batch) write.done.reject(failure);
      return;
    }
    const created = new Set<string>();
    const appended = new Set<string>();
    for (const row of result.rows) (row.seq === '0' ? created : appended).add(row.id);
    for (const write of batch) {
      if (write.type === 'create') write.done.resolve(created.has(write.row.id));
      else if (write.type === 'append') {
        const ok = appended.has(write.row.id);
        if (ok) this.notices.push(write.row.notice);
        write.done.resolve(ok);
      } else write.done.resolve(true);
    }
    if (appended.size) void this.notify();
  }

  /** One wake-up statement in flight; those committed meanwhile go together in the next. */
  private async notify(): Promise<void> {
    if (this.notifying) return;
    this.notifying = true;
    try {
      while (this.notices.length) {
        const payloads = this.notices;
        this.notices = [];
        // One JSON array, not a text[]: pg escapes array elements in JS, one regex pass per payload; JSON.stringify
        // does it natively (docs/performance.md, "Scale"). The poll covers a lost wake-up.
        await this.pool.query(NOTIFY_SQL, [this.channel, JSON.stringify(payloads)]).catch(() => {});
      }
    } finally {
      this.notifying = false;
    }
  }
}

function params(batch: Write[]): unknown[] {
  const c: unknown[][] = [[], [], [], [], [], [], []];
  const e: string[][] = [[], [], [], []];
  const u: unknown[][] = [[], [], [], [], [], [], [], []];
  const l: unknown[][] = [[], [], []];
  const h: string[][] = [[], []];
  const r: string[][] = [[], []];
  // Rows in id order: concurrent batches (of other instances too) lock shared rows in the same order.
  const sorted = batch.length > 1 ? [...batch].sort((x, y) => (x.row.id < y.row.id ? -1 : 1)) : batch;
  for (const write of sorted) {
    if (write.type === 'create') {
      const w = write.row;
      push(c, w.id, w.owner, w.contextId, w.state, w.timestamp, w.task, w.event ? 2 : 1);
      if (w.event) push(e, w.id, w.event.kind, w.event.state, w.event.event);
    } else if (write.type === 'append') {
      const w = write.row;
      push(u, w.id, w.expectedVersion, w.task, w.state, w.timestamp, w.bumpListSeq, w.kind, w.event);
    } else {
      const w = write.row;
      if (w.ttlMs !== undefined) push(l, w.id, w.instanceId, w.ttlMs);
      else push(w.handOver ? h : r, w.id, w.instanceId);
    }
  }
  return [...c, ...e, ...u, ...l, ...h, ...r];
}

function rowKey(write: Write): string {
  return `${write.type === 'lease' ? 'lease' : 'task'}:${write.row.id}`;
}

function push(columns: unknown[][], ...values: unknown[]): void {
  for (let i = 0; i < values.length; i++) columns[i]?.push(values[i]);
}
