/** A row a batch read returns for one id. */
export interface ReadRow {
  id: string;
}

interface Waiter<R> {
  id: string;
  resolve(row: R | undefined): void;
  reject(error: unknown): void;
}

export interface ReadBatcherOptions {
  /** Reads in flight at once (each holds a pool connection). Default 4. */
  maxInFlight?: number;
  /** Most ids per read. Default 500. */
  maxBatch?: number;
}

/**
 * Task reads by id, grouped: a read goes out at once while fewer than `maxInFlight` are in flight; reads issued while
 * that many are out wait and go together in the next one (`WHERE id = ANY(...)`). A SubscribeToTask storm (hundreds
 * of streams opening within a second) then costs a few queries instead of one pool round trip, one parse in
 * PostgreSQL and one result parse here per stream. The same idea as the write batcher (docs/performance.md, "Scale").
 * Two reads of one id in one batch share its row: `copy` gives the second its own.
 */
export class ReadBatcher<R extends ReadRow> {
  private queue: Waiter<R>[] = [];
  private inFlight = 0;
  private readonly maxInFlight: number;
  private readonly maxBatch: number;

  constructor(
    private readonly run: (ids: string[]) => Promise<R[]>,
    private readonly copy: (row: R) => R,
    options: ReadBatcherOptions = {},
  ) {
    this.maxInFlight = options.maxInFlight ?? 4;
    this.maxBatch = options.maxBatch ?? 500;
  }

  read(id: string): Promise<R | undefined> {
    return new Promise((resolve, reject) => {
      this.queue.push({ id, resolve, reject });
      this.pump();
    });
  }

  private pump(): void {
    while (this.inFlight < this.maxInFlight && this.queue.length) {
      const batch = this.queue.length <= this.maxBatch ? this.queue : this.queue.slice(0, this.maxBatch);
      this.queue = batch === this.queue ? [] : this.queue.slice(this.maxBatch);
      void this.send(batch);
    }
  }

  private async send(batch: Waiter<R>[]): Promise<void> {
    this.inFlight++;
    try {
      const rows = await this.run([...new Set(batch.map((w) => w.id))]);
      const byId = new Map(rows.map((row) => [row.id, row]));
      const handed = new Set<string>();
      for (const waiter of batch) {
        const row = byId.get(waiter.id);
        if (row && handed.has(waiter.id)) waiter.resolve(this.copy(row));
        else {
          handed.add(waiter.id);
          waiter.resolve(row);
        }
      }
    } catch (error) {
      for (const waiter of batch) waiter.reject(error);
    } finally {
      this.inFlight--;
      this.pump();
    }
  }
}
