// What the Zod schemas call (their preprocess, refine and transform callbacks) and what the engine shares with them,
// without Zod: the engine loads this module, never the schemas, at start-up (docs/performance.md, "Cold start").
// `scripts/generate-validators.mjs` compiles the schemas into `validators.generated.ts`, which imports these
// callbacks by name: every callback a schema hands to Zod is an export here (found by identity), or made by one of
// the `madeBy` factories below (found by the tag they carry). Nothing here may import `zod`.

/**
 * The longest id a request may carry (task, context, message, push config, referenced task, tenant), in characters.
 * Generous next to the 36-character UUIDs the server makes, small enough that an id repeated in an error (message,
 * `ErrorInfo` metadata, gRPC trailers) stays far under any header or log limit. Every binding shares it.
 */
export const MAX_ID_LENGTH = 1024;

export const PROTOCOL_BINDINGS = { jsonrpc: 'JSONRPC', rest: 'HTTP+JSON', grpc: 'GRPC' } as const;

/** The tag a factory-made callback carries: the factory's export name and its (JSON) arguments. */
export const MADE_BY: unique symbol = Symbol.for('a2a.schemas.madeBy');
function madeBy<F extends (...args: never[]) => unknown>(fn: F, factory: string, args: unknown[]): F {
  Object.defineProperty(fn, MADE_BY, { value: { factory, args } });
  return fn;
}

// ProtoJSON input rules (spec §5.5, digest §2.1): field names in lowerCamelCase or proto snake_case, `null` means
// unset, unknown fields are ignored, enums by name or number, int32 as number or numeric string.

export type Aliases = ReadonlyArray<readonly [camel: string, snake: string]>;

function normalizeFields(input: unknown, aliases: Aliases): unknown {
  if (input === null || typeof input !== 'object' || Array.isArray(input)) return input;
  const source = input as Record<string, unknown>;
  let out: Record<string, unknown> | undefined;
  for (const key in source) {
    if (source[key] === null) {
      out ??= { ...source };
      delete out[key];
    }
  }
  for (const [camel, snake] of aliases) {
    const current = out ?? source;
    if (current[camel] === undefined && current[snake] !== undefined) {
      out ??= { ...source };
      out[camel] = out[snake];
      delete out[snake];
    }
  }
  return out ?? input;
}

/** A proto message's preprocess: `null` fields dropped, snake_case names read as their camelCase `aliases`. */
export const fieldNormalizer = (aliases: Aliases) =>
  madeBy((input: unknown) => normalizeFields(input, aliases), 'fieldNormalizer', [aliases]);

/** A proto enum's preprocess: a number is the name at that index in `names`. */
export const enumNumberToName = (names: readonly string[]) =>
  madeBy(
    (v: unknown) => {
      if (typeof v === 'number' && Number.isInteger(v)) return names[v] ?? v;
      return v;
    },
    'enumNumberToName',
    [names],
  );

const intPattern = /^-?\d+$/;
/** int32's preprocess: a numeric string read as its number. */
export const int32FromString = (v: unknown): unknown => (typeof v === 'string' && intPattern.test(v) ? Number(v) : v);

/** bool's preprocess: "true"/"false" (REST query parameters). */
export const boolFromString = (v: unknown): unknown => (v === 'true' ? true : v === 'false' ? false : v);

const rfc3339 = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:?\d{2})$/;
// Date.parse wants at most millisecond precision on every runtime; Python's isoformat() sends microseconds.
function normalizeFraction(s: string): string {
  return s.replace(/\.(\d{3})\d+/, '.$1').replace(/([+-]\d{2})(\d{2})$/, '$1:$2');
}
/** google.protobuf.Timestamp: RFC 3339 in... */
export const isTimestamp = (s: string): boolean => rfc3339.test(s) && !Number.isNaN(Date.parse(normalizeFraction(s)));
/** ...UTC millisecond `Z` form out. */
export const toUtcTimestamp = (s: string): string => new Date(Date.parse(normalizeFraction(s))).toISOString();

const base64Pattern = /^[A-Za-z0-9+/_-]*={0,2}$/;
/** bytes: base64 in (standard or URL-safe, padded or not)... */
export const isBase64 = (s: string): boolean => base64Pattern.test(s) && s.replace(/=+$/, '').length % 4 !== 1;
/** ...standard padded base64 out. */
export const toStandardBase64 = (s: string): string => {
  const std = s.replace(/-/g, '+').replace(/_/g, '/').replace(/=+$/, '');
  return std + '='.repeat((4 - (std.length % 4)) % 4);
};

/** An absolute http(s) URL. */
export const isHttpUrl = (s: string): boolean => /^https?:\/\//i.test(s) && URL.canParse(s);

/** A transform that only narrows the type (`.transform(asIs)`). */
export const asIs = <T>(v: T): T => v;

export const isRealRole = (r: string): boolean => r !== 'ROLE_UNSPECIFIED';
export const isRealTaskState = (s: string): boolean => s !== 'TASK_STATE_UNSPECIFIED';

const PART_CONTENT = ['text', 'raw', 'url', 'data'] as const;
/** Part: exactly one of text | raw | url | data (a `.check()`: it names what it found in the message). */
export function partHasOneContent(payload: {
  value: Partial<Record<(typeof PART_CONTENT)[number], unknown>>;
  issues: unknown[];
}): void {
  const part = payload.value;
  const present = PART_CONTENT.filter((k) => part[k] !== undefined);
  if (present.length !== 1) {
    payload.issues.push({
      code: 'custom',
      input: part,
      continue: true,
      message:
        present.length === 0
          ? 'part must have one of text, raw, url or data'
          : `part must have exactly one of text, raw, url or data (got ${present.join(', ')})`,
    });
  }
}

/** A security scheme has exactly one scheme member. */
export const hasOneMember = (s: object): boolean => Object.values(s).filter((v) => v !== undefined).length === 1;

/** CreateTaskPushNotificationConfig names its task. */
export const hasTaskId = (c: { taskId?: string | undefined }): boolean =>
  typeof c.taskId === 'string' && c.taskId.length > 0;

/**
 * A task-state filter: UNSPECIFIED (0) and ts-proto's UNRECOGNIZED (-1), which `@a2a-js/sdk` sends for an unset
 * filter, mean "no filter"; any other name must be a real state.
 */
const NO_STATE_FILTER: ReadonlySet<unknown> = new Set(['TASK_STATE_UNSPECIFIED', 'UNRECOGNIZED', 0, -1, '0', '-1']);
export const unsetStateFilter = (v: unknown): unknown => (NO_STATE_FILTER.has(v) ? undefined : v);

/** A plain (not `optional`) int32 page size: 0 is its unset value. */
export const unsetZeroPageSize = (v: unknown): unknown => (v === 0 || v === '0' ? undefined : v);

/** The config as the v1.0 wire shows it (internal fields dropped). */
export function publicPushConfig<T extends { protocolVersion?: string | undefined }>({
  protocolVersion: _,
  ...config
}: T): T {
  return config as T;
}
