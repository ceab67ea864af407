import { A2AError, type A2AErrorType } from '../errors.js';

/**
 * How deep a request's JSON may nest (objects and arrays; the body itself is level 1). Values deeper than this
 * are refused before anything reads or stores them: `JSON.stringify` and most code that walks JSON recurse, so a
 * stored 10 000-deep `metadata` would make every later read of the task (and every ListTasks) fail.
 */
export const DEFAULT_MAX_JSON_DEPTH = 64;

/**
 * The path (keys and indexes) of the first object or array nested deeper than `maxDepth`, or `undefined` when the
 * value is within it. Iterative: any depth `JSON.parse` accepts is walked without growing the call stack.
 */
export function tooDeepPath(value: unknown, maxDepth: number): (string | number)[] | undefined {
  // No limit, nothing to find: not a walk of the whole body (JSON-RPC reads its body with no limit, then checks the
  // limit once, knowing the field names; docs/performance.md, "Hot-path tricks").
  if (typeof value !== 'object' || value === null || maxDepth === Number.POSITIVE_INFINITY) return undefined;
  // First a walk that only counts (the common case: within the limit), then one that keeps parents for the path.
  const exceeded = maxDepth <= RECURSIVE_DEPTH ? nestsDeeper(value, 1, maxDepth) : walksDeeper(value, maxDepth);
  return exceeded ? findPath(value, maxDepth) : undefined;
}

/**
 * Up to this limit the counting walk recurses (at most this many frames deep: it stops at the limit), which makes
 * no array per call; the stacks of {@link walksDeeper} cost ~0.13 KB per JSON-RPC request (issue 39,
 * docs/performance.md "Per request"). Above it, any depth is walked without growing the call stack.
 */
const RECURSIVE_DEPTH = 256;

/** Whether an object or array inside `node` (at `depth`) lies deeper than `maxDepth`. */
function nestsDeeper(node: object, depth: number, maxDepth: number): boolean {
  for (const key in node) {
    const child = (node as Record<string, unknown>)[key];
    if (typeof child !== 'object' || child === null) continue;
    if (depth >= maxDepth || nestsDeeper(child, depth + 1, maxDepth)) return true;
  }
  return false;
}

/** {@link nestsDeeper} with stacks of its own instead of the call stack. */
function walksDeeper(value: object, maxDepth: number): boolean {
  const values: object[] = [value];
  const depths: number[] = [1];
  while (values.length > 0) {
    const node = values.pop() as Record<string, unknown>;
    const depth = (depths.pop() as number) + 1;
    for (const key in node) {
      const child = node[key];
      if (typeof child !== 'object' || child === null) continue;
      if (depth > maxDepth) return true;
      values.push(child);
      depths.push(depth);
    }
  }
  return false;
}

function findPath(value: object, maxDepth: number): (string | number)[] {
  interface Visit {
    node: object;
    depth: number;
    key: string | number | undefined;
    parent: Visit | undefined;
  }
  const stack: Visit[] = [{ node: value, depth: 1, key: undefined, parent: undefined }];
  for (;;) {
    const visit = stack.pop() as Visit;
    if (visit.depth > maxDepth) {
      const path: (string | number)[] = [];
      for (let at: Visit | undefined = visit; at?.parent; at = at.parent) path.push(at.key as string | number);
      return path.reverse();
    }
    const isArray = Array.isArray(visit.node);
    const children: Visit[] = [];
    for (const key in visit.node) {
      const child = (visit.node as Record<string, unknown>)[key];
      if (typeof child !== 'object' || child === null) continue;
      children.push({ node: child, depth: visit.depth + 1, key: isArray ? Number(key) : key, parent: visit });
    }
    // Depth-first in document order, so the error names the first offending field.
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i] as Visit);
  }
}

/** `message.metadata.a.a…` (the first segments; a path 10 000 keys long is not an error message). */
export function describePath(path: (string | number)[]): string {
  const shown = path
    .slice(0, 6)
    .map((key, i) => (typeof key === 'number' ? `[${key}]` : i === 0 ? key : `.${key}`))
    .join('');
  return path.length > 6 ? `${shown}…` : shown || '(root)';
}

/**
 * Refuses a request value nested deeper than `maxDepth`: InvalidParams (or `type`) naming the field. `prefix` is
 * dropped from the path (the JSON-RPC envelope's `params`).
 */
export function checkJsonDepth(
  value: unknown,
  maxDepth: number,
  type: A2AErrorType = 'InvalidParams',
  prefix?: string,
): void {
  const path = tooDeepPath(value, maxDepth);
  if (path) throw depthError(path, maxDepth, type, prefix);
}

/** The error for a value at `path` nested deeper than `maxDepth` (see {@link checkJsonDepth}). */
export function depthError(
  path: (string | number)[],
  maxDepth: number,
  type: A2AErrorType = 'InvalidParams',
  prefix?: string,
): A2AError {
  const field = describePath(prefix !== undefined && path[0] === prefix ? path.slice(1) : path);
  const description = `nested deeper than ${maxDepth} levels`;
  const label = type === 'InvalidParams' ? 'Invalid params' : 'Invalid request';
  return new A2AError(type, `${label}: ${field} is ${description}`, { fieldViolations: [{ field, description }] });
}
