/**
 * Values grouped by key in arrays, not Sets: there is usually one value per key (one execution, one subscriber per
 * task), and a Set's table costs ~150 B per key. A key whose list empties is dropped.
 */
export class KeyedLists<K, V> {
  readonly #lists = new Map<K, V[]>();

  /** Keys with at least one value. */
  get size(): number {
    return this.#lists.size;
  }

  has(key: K): boolean {
    return this.#lists.has(key);
  }

  /** The live list of `key` (do not keep it across a change: copy it to iterate while values may be removed). */
  get(key: K): readonly V[] | undefined {
    return this.#lists.get(key);
  }

  add(key: K, value: V): void {
    const list = this.#lists.get(key);
    if (list) list.push(value);
    else this.#lists.set(key, [value]);
  }

  remove(key: K, value: V): void {
    const list = this.#lists.get(key);
    const at = list?.indexOf(value) ?? -1;
    if (!list || at < 0) return;
    list.splice(at, 1);
    if (list.length === 0) this.#lists.delete(key);
  }

  values(): IterableIterator<readonly V[]> {
    return this.#lists.values();
  }
}
