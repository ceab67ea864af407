/**
 * ACTS dot-paths (capture values, `repeat.until`, collection paths): `task.id`, `artifacts[0].parts[0].text`,
 * `tasks[*]` (wildcard, collection assertions only). A segment names an object member or indexes an array.
 */
export type PathSegment = { key: string } | { index: number } | { wildcard: true };

export function parsePath(path: string): PathSegment[] {
  if (/^[.[]|\.\.|\.$|\.\[/.test(path) && !/^\[/.test(path)) throw new Error(`invalid path "${path}"`);
  const segments: PathSegment[] = [];
  const re = /([^.[\]]+)|\[(\d+|\*)\]|(\.)/g;
  let last = 0;
  for (let m = re.exec(path); m; m = re.exec(path)) {
    if (m.index !== last) throw new Error(`invalid path "${path}"`);
    last = re.lastIndex;
    if (m[1] !== undefined) segments.push({ key: m[1] });
    else if (m[2] === '*') segments.push({ wildcard: true });
    else if (m[2] !== undefined) segments.push({ index: Number(m[2]) });
  }
  if (last !== path.length || path.length === 0) throw new Error(`invalid path "${path}"`);
  return segments;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The value at a path without wildcards; `found` is false when a member or index is missing. */
export function resolvePath(root: unknown, path: string): { found: boolean; value?: unknown } {
  let current: unknown = root;
  for (const segment of parsePath(path)) {
    if ('wildcard' in segment) throw new Error(`wildcard in "${path}" is only allowed in collection assertions`);
    if ('index' in segment) {
      if (!Array.isArray(current) || segment.index >= current.length) return { found: false };
      current = current[segment.index];
    } else {
      if (!isRecord(current) || !Object.hasOwn(current, segment.key)) return { found: false };
      current = current[segment.key];
    }
  }
  return { found: true, value: current };
}

/** Every value a path (with `[*]` wildcards) reaches; missing members are skipped. */
export function collectPath(root: unknown, path: string): unknown[] {
  let current: unknown[] = [root];
  for (const segment of parsePath(path)) {
    const next: unknown[] = [];
    for (const value of current) {
      if ('wildcard' in segment) {
        if (Array.isArray(value)) next.push(...value);
      } else if ('index' in segment) {
        if (Array.isArray(value) && segment.index < value.length) next.push(value[segment.index]);
      } else if (isRecord(value) && Object.hasOwn(value, segment.key)) {
        next.push(value[segment.key]);
      }
    }
    current = next;
  }
  return current;
}
