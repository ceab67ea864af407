import type { TaskEventRecord } from '@a2a/core';

/** Most records one watch holds; beyond, it gives up (the subscriber reads the log). */
const MAX_RECORDS = 1000;

/**
 * The NOTIFY-carried records of one task from just before a read of it until the next turn of the event loop, when
 * the engine has subscribed from the version that read returned. Such a subscriber needs no first read of the log:
 * every event after that version committed after the read began, so its NOTIFY came into the watch or comes to the
 * subscriber (one query per SubscribeToTask instead of two; docs/performance.md, "Scale"). A record NOTIFY could not
 * carry (too large), a LISTEN connection that was down or lost, or an overflow breaks the watch: its subscribers read
 * the log as before.
 */
export class NotifyWatch {
  /** Reads of the task in progress while this watch is open. */
  refs = 0;
  /** The lowest version a read made during this watch returned: every record after it is here. */
  private coveredFrom = Number.POSITIVE_INFINITY;
  private readonly records = new Map<number, TaskEventRecord>();
  private broken: boolean;

  constructor(listening: boolean) {
    this.broken = !listening;
  }

  /** A read that began while this watch was open returned `version`. */
  read(version: number): void {
    this.coveredFrom = Math.min(this.coveredFrom, version);
  }

  /** A NOTIFY for the task: its record, or `undefined` when it carried none. */
  add(record: TaskEventRecord | undefined): void {
    if (!record || this.records.size >= MAX_RECORDS) this.broken = true;
    else this.records.set(record.seq, record);
  }

  /** Notifications may have been missed (the LISTEN connection was lost). */
  break(): void {
    this.broken = true;
  }

  /** The records after `afterSeq` when this watch covers it; `undefined`: read the log. */
  after(afterSeq: number): TaskEventRecord[] | undefined {
    if (this.broken || afterSeq < this.coveredFrom) return undefined;
    return [...this.records.values()].filter((r) => r.seq > afterSeq);
  }
}
