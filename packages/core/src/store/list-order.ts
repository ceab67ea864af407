/**
 * One owner's tasks in ascending `listSeq` (the ListTasks order), for the in-memory store. An append-only pair of
 * arrays instead of a Map: a task whose status changes is appended again with its new `listSeq`, and the slot it
 * leaves behind is recognized as stale (the entry's `listSeq` moved on; a forgotten entry gets -1). Newest-first
 * pages walk from the end and find the cursor by binary search, so a page costs what it returns, not the number of
 * stored tasks; and a slot costs two array cells instead of a Map entry per task. Stale slots are compacted away
 * once they exceed a quarter of the live ones (amortized a few copies per move).
 */
export class ListOrder<E extends { listSeq: number }> {
  /** The owner, kept once for all its entries. */
  constructor(readonly key: string) {}

  private readonly entries: E[] = [];
  private readonly seqs: number[] = [];
  /** Live entries. */
  size = 0;

  add(entry: E): void {
    this.size++;
    this.append(entry);
  }

  /** The entry got a new `listSeq` (larger than every one before). */
  moved(entry: E): void {
    this.append(entry);
  }

  /** The entry left the store; its slots become stale. */
  remove(entry: E): void {
    entry.listSeq = -1;
    this.size--;
    this.compactIfSparse();
  }

  /** Live entries, newest first, with `listSeq` below `before`. Stop iterating to stop the walk. */
  *newestFirst(before = Number.POSITIVE_INFINITY): Generator<E> {
    const { entries, seqs } = this;
    for (let i = this.lastBelow(before); i >= 0; i--) {
      const entry = entries[i] as E;
      if (entry.listSeq === seqs[i]) yield entry;
    }
  }

  private append(entry: E): void {
    this.entries.push(entry);
    this.seqs.push(entry.listSeq);
    this.compactIfSparse();
  }

  /** Index of the last slot whose seq is below `before` (-1 when none). */
  private lastBelow(before: number): number {
    const { seqs } = this;
    let lo = 0;
    let hi = seqs.length; // first index with seq >= before lies in [lo, hi]
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((seqs[mid] as number) < before) lo = mid + 1;
      else hi = mid;
    }
    return lo - 1;
  }

  /**
   * In place: the live slots slide down and the arrays are cut to them. Two fresh arrays grown by `push` allocated
   * ~0.3 MB per compaction of a full 10 000-task store, ~0.25 KB per SendMessage amortized (issue 39,
   * docs/performance.md "Per request"). No walk is under way meanwhile: `newestFirst`'s callers do not write.
   */
  private compactIfSparse(): void {
    const { entries, seqs } = this;
    if (entries.length <= this.size + (this.size >> 2) + 64) return;
    let kept = 0;
    for (let i = 0; i < entries.length; i++) {
      const entry = entries[i] as E;
      if (entry.listSeq === seqs[i]) {
        entries[kept] = entry;
        seqs[kept] = entry.listSeq;
        kept++;
      }
    }
    entries.length = kept;
    seqs.length = kept;
  }
}
