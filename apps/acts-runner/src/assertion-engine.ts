/**
 * The ACTS assertion language (spec §5): a bare scalar is exact equality, a map of operators is an assertion
 * object (operators AND-ed), any other map mirrors the response's nesting, and a list asserts the elements at the
 * same positions. `one_of` alternatives that are maps or lists are matched as patterns, scalars by equality.
 */

export const ASSERTION_TYPES = ['string', 'number', 'boolean', 'array', 'object', 'null'] as const;

/** Operator name → what its value must look like (the grammar's assertion-object). */
export const OPERATORS: Record<string, (value: unknown) => boolean> = {
  type: (v) => typeof v === 'string' && (ASSERTION_TYPES as readonly string[]).includes(v),
  exists: (v) => v === true,
  absent: (v) => v === true,
  contains: (v) => typeof v === 'string',
  matches: (v) => typeof v === 'string',
  starts_with: (v) => typeof v === 'string',
  ends_with: (v) => typeof v === 'string',
  gte: (v) => typeof v === 'number',
  lte: (v) => typeof v === 'number',
  gt: (v) => typeof v === 'number',
  lt: (v) => typeof v === 'number',
  count: (v) => Number.isInteger(v),
  count_gte: (v) => Number.isInteger(v),
  count_lte: (v) => Number.isInteger(v),
  one_of: (v) => Array.isArray(v) && v.length > 0,
  all_of: (v) => Array.isArray(v) && v.length > 0,
  any_of: (v) => Array.isArray(v) && v.length > 0,
  not: () => true,
};

export const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * How a map in an assertion position reads: 'operators' (every key an operator whose value has the operator's
 * shape), 'fields' (no key is an operator), or 'mixed' (a grammar violation: the runner cannot tell them apart). A
 * key that names an operator but holds a map (`type: {type: string}` in a problem-details body) is a field.
 */
export function classifyMap(map: Record<string, unknown>): 'operators' | 'fields' | 'mixed' {
  let operators = 0;
  let fields = 0;
  for (const [key, value] of Object.entries(map)) {
    const shape = OPERATORS[key];
    const isOperator =
      shape !== undefined && (key === 'not' || key.endsWith('_of') ? shape(value) : !isRecord(value) && shape(value));
    if (isOperator) operators++;
    else fields++;
  }
  if (operators > 0 && fields > 0) return 'mixed';
  return operators > 0 ? 'operators' : 'fields';
}

export interface AssertionFailure {
  path: string;
  message: string;
  expected?: string;
  actual?: string;
}

const show = (v: unknown): string => (v === undefined ? '<absent>' : JSON.stringify(v));
const join = (path: string, key: string | number) =>
  typeof key === 'number' ? `${path}[${key}]` : path ? `${path}.${key}` : key;

export function typeOf(value: unknown): (typeof ASSERTION_TYPES)[number] | 'undefined' {
  if (value === undefined) return 'undefined';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  const t = typeof value;
  return t === 'string' || t === 'number' || t === 'boolean' ? t : 'object';
}

export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => deepEqual(x, b[i]));
  if (isRecord(a) && isRecord(b)) {
    const ka = Object.keys(a);
    return ka.length === Object.keys(b).length && ka.every((k) => Object.hasOwn(b, k) && deepEqual(a[k], b[k]));
  }
  return false;
}

/**
 * Checks `actual` (undefined when the member is absent) against an assertion. Returns the failures; none means it
 * holds.
 */
export function check(actual: unknown, assertion: unknown, path = ''): AssertionFailure[] {
  if (Array.isArray(assertion)) {
    if (!Array.isArray(actual))
      return [{ path, message: 'expected an array', expected: 'array', actual: show(actual) }];
    return assertion.flatMap((item, i) =>
      i < actual.length
        ? check(actual[i], item, join(path, i))
        : [{ path: join(path, i), message: `missing element ${i}`, expected: show(item), actual: '<absent>' }],
    );
  }
  if (!isRecord(assertion)) {
    return deepEqual(actual, assertion)
      ? []
      : [
          {
            path,
            message: `expected ${show(assertion)}, got ${show(actual)}`,
            expected: show(assertion),
            actual: show(actual),
          },
        ];
  }
  const kind = classifyMap(assertion);
  if (kind === 'mixed') throw new Error(`assertion at "${path}" mixes operators and fields`);
  if (kind === 'fields') {
    if (!isRecord(actual))
      return [{ path, message: `expected an object, got ${show(actual)}`, expected: 'object', actual: show(actual) }];
    return Object.entries(assertion).flatMap(([key, sub]) =>
      check(Object.hasOwn(actual, key) ? actual[key] : undefined, sub, join(path, key)),
    );
  }
  return Object.entries(assertion).flatMap(([op, operand]) => checkOperator(actual, op, operand, path));
}

function checkOperator(actual: unknown, op: string, operand: unknown, path: string): AssertionFailure[] {
  const fail = (message: string, expected: unknown = operand): AssertionFailure[] => [
    { path, message, expected: typeof expected === 'string' ? expected : show(expected), actual: show(actual) },
  ];
  const holds = (sub: unknown) => check(actual, sub, path).length === 0;
  switch (op) {
    case 'absent':
      return actual === undefined ? [] : fail('expected the field to be absent', '<absent>');
    case 'exists':
      return actual !== undefined ? [] : fail('expected the field to exist', '<present>');
    case 'not':
      return holds(operand) ? fail(`expected not ${show(operand)}`, `not ${show(operand)}`) : [];
    case 'all_of':
      return (operand as unknown[]).flatMap((sub) => check(actual, sub, path));
    case 'any_of':
      return (operand as unknown[]).some(holds) ? [] : fail(`matched none of ${show(operand)}`);
    case 'one_of':
      return (operand as unknown[]).some((alt) =>
        isRecord(alt) || Array.isArray(alt) ? holds(alt) : deepEqual(actual, alt),
      )
        ? []
        : fail(`expected one of ${show(operand)}, got ${show(actual)}`);
  }
  if (actual === undefined) return fail(`missing (operator ${op})`);
  switch (op) {
    case 'type':
      return typeOf(actual) === operand ? [] : fail(`expected type ${operand}, got ${typeOf(actual)}`);
    case 'contains':
    case 'matches':
    case 'starts_with':
    case 'ends_with': {
      if (typeof actual !== 'string') return fail(`${op} needs a string, got ${typeOf(actual)}`);
      const s = operand as string;
      const ok =
        op === 'contains'
          ? actual.includes(s)
          : op === 'starts_with'
            ? actual.startsWith(s)
            : op === 'ends_with'
              ? actual.endsWith(s)
              : new RegExp(s, 'u').test(actual);
      return ok ? [] : fail(`expected ${show(actual)} to satisfy ${op} ${show(s)}`);
    }
    case 'gte':
    case 'lte':
    case 'gt':
    case 'lt': {
      if (typeof actual !== 'number') return fail(`${op} needs a number, got ${typeOf(actual)}`);
      const n = operand as number;
      const ok = op === 'gte' ? actual >= n : op === 'lte' ? actual <= n : op === 'gt' ? actual > n : actual < n;
      return ok ? [] : fail(`expected ${actual} ${op} ${n}`);
    }
    case 'count':
    case 'count_gte':
    case 'count_lte': {
      if (!Array.isArray(actual)) return fail(`${op} needs an array, got ${typeOf(actual)}`);
      const n = operand as number;
      const len = actual.length;
      const ok = op === 'count' ? len === n : op === 'count_gte' ? len >= n : len <= n;
      return ok ? [] : fail(`expected ${op} ${n}, got ${len} elements`);
    }
  }
  throw new Error(`unknown operator ${op}`);
}

/**
 * `repeat.until` (§9.1): `path == value`, `path != value`, `path in [a, b]`. Values are bare words, quoted strings,
 * numbers, booleans or null.
 */
export function parseUntil(
  expression: string,
): (root: unknown, resolve: (root: unknown, path: string) => unknown) => boolean {
  const m = /^\s*([^\s=!]+)\s*(==|!=|\bin\b)\s*(.+?)\s*$/.exec(expression);
  if (!m) throw new Error(`invalid until expression "${expression}"`);
  const [, path = '', op, rhs = ''] = m;
  const literal = (text: string): unknown => {
    const t = text.trim();
    if (/^(["']).*\1$/.test(t)) return t.slice(1, -1);
    if (t === 'true' || t === 'false') return t === 'true';
    if (t === 'null') return null;
    if (/^-?\d+(\.\d+)?$/.test(t)) return Number(t);
    return t;
  };
  if (op === 'in') {
    const list = /^\[(.*)\]$/.exec(rhs);
    if (!list) throw new Error(`invalid until expression "${expression}": "in" needs a [list]`);
    const values = (list[1] ?? '')
      .split(',')
      .filter((s) => s.trim() !== '')
      .map(literal);
    return (root, resolve) => values.some((v) => deepEqual(resolve(root, path), v));
  }
  const value = literal(rhs);
  return (root, resolve) => deepEqual(resolve(root, path), value) === (op === '==');
}
