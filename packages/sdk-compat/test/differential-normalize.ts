// What the differential suite compares: a run's results as plain JSON, with the values that differ on every run
// (ids, message ids, context ids, timestamps) replaced by stable aliases, so equal behaviour gives equal JSON.

/** Keys whose values are server- or client-made ids: each distinct value becomes `<id:N>`, N by first appearance. */
const ID_KEYS = new Set(['id', 'taskId', 'contextId', 'messageId', 'referenceTaskIds', 'nextPageToken', 'pageToken']);
const TIME_KEYS = new Set(['timestamp', 'statusTimestampAfter']);

/** One run's aliases: the same id gets the same alias in every step, so relations between steps are compared too. */
export class Masker {
  private readonly aliases = new Map<string, string>();

  constructor(private readonly origin: string) {}

  mask(value: unknown): unknown {
    return this.walk(plain(value), undefined);
  }

  private alias(id: string): string {
    if (id === '') return id;
    const alias = this.aliases.get(id) ?? `<id:${this.aliases.size + 1}>`;
    this.aliases.set(id, alias);
    return alias;
  }

  private walk(value: unknown, key: string | undefined): unknown {
    if (typeof value === 'string') {
      if (key && ID_KEYS.has(key)) return this.alias(value);
      if (key && TIME_KEYS.has(key)) return value ? '<timestamp>' : value;
      return value.replaceAll(this.origin, '<origin>');
    }
    if (Array.isArray(value)) return value.map((item) => this.walk(item, key));
    if (typeof value === 'object' && value !== null) {
      // Keys in sorted order, so aliases do not depend on the order a server writes its fields in.
      const keys = Object.keys(value).sort();
      return Object.fromEntries(keys.map((k) => [k, this.walk((value as Record<string, unknown>)[k], k)]));
    }
    return value;
  }
}

/** JSON without `undefined` members; bytes as base64. */
export function plain(value: unknown): unknown {
  return JSON.parse(
    JSON.stringify(value, (_key, v) => (v instanceof Uint8Array ? Buffer.from(v).toString('base64') : v)) ?? 'null',
  );
}

/** A thrown error as the client surfaced it: its class and message (JSON-RPC code, if it has one). */
export function errorOf(error: unknown): { error: string; message: string; code?: number } {
  const e = error as { name?: string; constructor?: { name?: string }; message?: string; code?: number };
  return {
    error: e.constructor?.name ?? e.name ?? typeof error,
    message: String(e.message ?? error),
    ...(typeof e.code === 'number' ? { code: e.code } : {}),
  };
}

/** The result of `run`, or the error it threw. */
export async function outcome<T>(run: () => Promise<T>): Promise<T | ReturnType<typeof errorOf>> {
  try {
    return await run();
  } catch (error) {
    return errorOf(error);
  }
}

/** A deliberate difference of our engine: `applies` to a step's masked result, `erase` rewrites it on both sides. */
export interface KnownDifference {
  /** What differs. */
  what: string;
  /** Why it may. */
  why: string;
  /** The step names (`scenario/step`) it applies to. */
  steps: RegExp;
  /**
   * Rewrites one side's masked result (in place) so the difference is gone: `true` if it changed anything, or
   * `{ replace }` to stand for the whole result.
   */
  erase(result: unknown, side: 'sdk' | 'ours'): boolean | { replace: unknown };
}

/** Applies every known difference to a step's result; records which entries were needed. */
export function applyKnown(
  known: readonly KnownDifference[],
  step: string,
  result: unknown,
  side: 'sdk' | 'ours',
  used: Set<KnownDifference>,
): unknown {
  let copy = structuredClone(result);
  for (const difference of known) {
    if (!difference.steps.test(step)) continue;
    const erased = difference.erase(copy, side);
    if (typeof erased === 'object') copy = erased.replace;
    if (erased) used.add(difference);
  }
  return copy;
}

type Json = Record<string, unknown>;

/** Sets `field` of the object at `path` to `to` when `when(value)` holds; true if it changed anything. */
export function rewrite(result: unknown, path: string[], field: string, to: unknown, when = (_: unknown) => true) {
  let node = result as Json | undefined;
  for (const key of path) node = node?.[key] as Json | undefined;
  if (typeof node !== 'object' || node === null || !(field in node) || node[field] === to || !when(node[field])) {
    return false;
  }
  node[field] = to;
  return true;
}

/** Calls `edit` on every object inside `value`; true if any call reported a change (a non-zero count). */
export function everyObject(value: unknown, edit: (o: Json) => number | boolean): boolean {
  let changed = false;
  const visit = (node: unknown) => {
    if (Array.isArray(node)) node.forEach(visit);
    else if (typeof node === 'object' && node !== null) {
      if (edit(node as Json)) changed = true;
      Object.values(node).forEach(visit);
    }
  };
  visit(value);
  return changed;
}

/** Deletes `o[key]` when `when` holds for its value; 1 if it did. */
export function drop(o: Json, key: string, when = (_: unknown) => true): number {
  if (!(key in o) || !when(o[key])) return 0;
  delete o[key];
  return 1;
}

export const isEmpty = (v: unknown) => Array.isArray(v) && v.length === 0;
export const isFalse = (v: unknown) => v === false;

/** A step's whole result replaced by `marker` when `matches` holds for it. */
export function replaceAll(
  result: unknown,
  matches: (r: any) => boolean,
  marker: unknown,
): false | { replace: unknown } {
  return typeof result === 'object' && result !== null && matches(result) && { replace: marker };
}

/** A refusal with JSON-RPC `code` (or, over REST, an error naming it or typed `type`) becomes `{ refused: type }`. */
export function refusal(result: unknown, code: number, type: string): false | { replace: unknown } {
  const named = (r: { code?: number; message?: string; error?: string }) =>
    r.code === code || String(r.message).includes(`(Code: ${code})`) || r.error === `${type}Error`;
  return replaceAll(result, named, { refused: type });
}
