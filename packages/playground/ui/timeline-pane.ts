import { MAX_ROWS, type Saved } from './saved-state.js';
import { type Row, renderRow } from './timeline.js';

/** The task timeline on the page and its count, its rows kept in {@link Saved} for a reload. */
export class TimelinePane {
  constructor(
    private readonly list: HTMLOListElement,
    private readonly count: HTMLSpanElement,
    private readonly saved: Saved,
  ) {}

  /** Appends a row; the oldest go past {@link MAX_ROWS}. */
  add(row: Row): void {
    this.saved.rows.push(row);
    this.list.append(renderRow(row));
    while (this.list.childElementCount > MAX_ROWS) this.list.firstElementChild?.remove();
    this.countRows();
  }

  /** Shows the rows saved before a reload. */
  restore(): void {
    for (const row of this.saved.rows) this.list.append(renderRow(row));
    this.countRows();
  }

  clear(): void {
    this.saved.rows = [];
    this.list.replaceChildren();
    this.countRows();
  }

  private countRows(): void {
    const n = this.list.childElementCount;
    this.count.textContent = n ? `(${n})` : '';
  }
}
