/**
 * Whether two JSON values are equal, ignoring key order and `undefined` members (a value read back from a store such
 * as PostgreSQL's jsonb has its keys reordered and its `undefined` members dropped). Request bodies are depth-limited
 * (`maxJsonDepth`), so the recursion is bounded.
 */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const other = b as unknown[];
    return a.length === other.length && a.every((item, i) => jsonEqual(item, other[i]));
  }
  const left = a as Record<string, unknown>;
  const right = b as Record<string, unknown>;
  const keys = (o: Record<string, unknown>) => Object.keys(o).filter((k) => o[k] !== undefined);
  const leftKeys = keys(left);
  return leftKeys.length === keys(right).length && leftKeys.every((k) => jsonEqual(left[k], right[k]));
}
