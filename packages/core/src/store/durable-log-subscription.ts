import { isTerminal } from '../task-state.js';
import type { TaskEventRecord } from './task-store.js';

export interface LogReader {
  /** Records with `seq > afterSeq` in order (at most `limit`), or `undefined` when the task does not exist. */
  read(taskId: string, afterSeq: number, limit: number): Promise<TaskEventRecord[] | undefined>;
  /**
   * When the task expires (ms from now), for a store that knows (Redis key TTLs): a subscription with nothing left to
   * read reads again then, and ends as the task is gone. Absent or `undefined`: no such wake-up.
   */
  expiresIn?(taskId: string): number | undefined;
}

const BATCH = 500;
/** Records offered ahead of the cursor that are held for later (beyond: dropped, the log has them). */
const MAX_EARLY = 1000;

/**
 * A durable store's subscription (@a2a/postgres, @a2a/redis): a cursor over one task's event log, read on demand.
 * Wake-ups (a NOTIFY or stream tail, a poll, a reconnect, a local append) only mark it stale, and the next read
 * returns every record after the cursor. So a lost wake-up delays events but never loses or reorders them. Ends after
 * a terminal state, when the task does not exist, or on close.
 */
export class LogSubscription implements AsyncIterableIterator<TaskEventRecord> {
  cursor: number;
  private readonly buffer: TaskEventRecord[] = [];
  /**
   * Records offered while a read was in flight or ahead of the cursor, by seq: taken once the cursor reaches them, so
   * a record that arrives during a read costs no second read (at the start of a stream, under load, the first read
   * takes long and most records arrive during it; docs/performance.md, "Scale").
   */
  private readonly early = new Map<number, TaskEventRecord>();
  private reading = false;
  private stale = true;
  private ended = false;
  private closed = false;
  private wakeUp: (() => void) | undefined;
  private expiryTimer: ReturnType<typeof setTimeout> | undefined;
  private readonly detach: (() => void) | undefined;

  constructor(
    readonly taskId: string,
    afterSeq: number,
    private readonly reader: LogReader,
    private readonly onClose: (subscription: LogSubscription) => void,
    signal?: AbortSignal,
    /** The records after `afterSeq` when they are known to be all there are so far (no first read: @a2a/postgres's NotifyWatch). */
    primed?: TaskEventRecord[],
  ) {
    this.cursor = afterSeq;
    if (primed) {
      this.stale = false;
      for (const record of primed) this.early.set(record.seq, record);
      this.takeEarly();
    }
    if (signal?.aborted) this.closed = true;
    else if (signal) {
      const abort = () => void this.return();
      signal.addEventListener('abort', abort, { once: true });
      this.detach = () => signal.removeEventListener('abort', abort);
    }
  }

  /** Something after `seq - 1` may exist. */
  wake(seq = Number.POSITIVE_INFINITY): void {
    if (seq <= this.cursor || this.ended) return;
    this.stale = true;
    this.signal();
  }

  /**
   * A record (written here, or carried by the store's notification): taken directly when it is the next one, held when a read is in
   * flight or it is ahead of the cursor (then the log is read for the gap).
   */
  offer(record: TaskEventRecord): void {
    if (this.ended || record.seq <= this.cursor) return;
    if (record.seq === this.cursor + 1 && !this.stale && !this.reading) this.accept([record]);
    else {
      if (this.early.size < MAX_EARLY) this.early.set(record.seq, record);
      if (!this.reading) this.stale = true;
    }
    this.signal();
  }

  async next(): Promise<IteratorResult<TaskEventRecord>> {
    for (;;) {
      const item = this.buffer.shift();
      if (item) return { value: item, done: false };
      if (this.closed || this.ended) return this.finish();
      if (this.stale) {
        this.stale = false;
        this.reading = true;
        let records: TaskEventRecord[] | undefined;
        try {
          records = await this.reader.read(this.taskId, this.cursor, BATCH);
        } catch {
          // The backend unreachable: keep the cursor; the store wakes its subscriptions when it is back (poll, tail).
          continue;
        } finally {
          this.reading = false;
          if (this.closed) records = [];
        }
        if (records === undefined) this.ended = true;
        else {
          if (records.length === 0) this.recheckAtExpiry();
          if (records.length === BATCH) this.stale = true;
          this.accept(records.filter((r) => r.seq > this.cursor));
          this.takeEarly();
        }
        continue;
      }
      await new Promise<void>((resolve) => {
        this.wakeUp = resolve;
      });
    }
  }

  async return(): Promise<IteratorResult<TaskEventRecord>> {
    this.buffer.length = 0;
    this.early.clear();
    this.closed = true;
    this.signal();
    return this.finish();
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  private accept(records: TaskEventRecord[]): void {
    for (const record of records) {
      if (record.seq !== this.cursor + 1) {
        // A hole (should not happen: seq = version): re-read from the log rather than skip.
        this.stale = true;
        return;
      }
      this.buffer.push(record);
      this.cursor = record.seq;
      if (isTerminal(record.state)) {
        this.ended = true;
        return;
      }
    }
  }

  /** Takes the held records that now follow the cursor; a gap before the rest means a read. */
  private takeEarly(): void {
    if (this.early.size === 0) return;
    const next: TaskEventRecord[] = [];
    for (let record = this.early.get(this.cursor + 1); record; record = this.early.get(record.seq + 1))
      next.push(record);
    this.accept(next);
    for (const seq of this.early.keys()) if (seq <= this.cursor) this.early.delete(seq);
    if (this.early.size > 0 && !this.ended) this.stale = true;
  }

  /** A finished task whose subscriber waits past its last event: woken when the task expires, to end. */
  private recheckAtExpiry(): void {
    const ms = this.reader.expiresIn?.(this.taskId);
    if (ms === undefined || this.expiryTimer) return;
    this.expiryTimer = setTimeout(() => {
      this.expiryTimer = undefined;
      this.wake();
    }, ms + 20);
    this.expiryTimer.unref?.();
  }

  private signal(): void {
    const wakeUp = this.wakeUp;
    this.wakeUp = undefined;
    wakeUp?.();
  }

  private finish(): IteratorResult<TaskEventRecord> {
    clearTimeout(this.expiryTimer);
    if (!this.closed) this.closed = true;
    this.detach?.();
    this.onClose(this);
    return { value: undefined, done: true };
  }
}
