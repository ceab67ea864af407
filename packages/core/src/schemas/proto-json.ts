import { z } from 'zod';

// ProtoJSON input rules (spec §5.5, digest §2.1): field names in lowerCamelCase or proto snake_case, `null` means
// unset, unknown fields are ignored, enums by name or number, int32 as number or numeric string. Output is always
// the canonical camelCase form the schemas produce.

const snakeCase = (name: string): string => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

type Aliases = ReadonlyArray<readonly [camel: string, snake: string]>;

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

/** A proto message: an object schema that also accepts snake_case names and treats `null` as unset. */
export function protoMessage<S extends z.ZodRawShape>(shape: S) {
  const aliases: Aliases = Object.keys(shape)
    .map((k) => [k, snakeCase(k)] as const)
    .filter(([camel, snake]) => camel !== snake);
  return z.preprocess((input) => normalizeFields(input, aliases), z.object(shape));
}

// Fields whose empty value is valid: ProtoJSON omits an empty string, list or map (REQUIRED ones too: the
// annotation does not change the encoding), so a missing one reads as empty, the way every proto parser reads it.
// Fields that must not be empty (ids, `Message.parts`, `AgentCard.skills`) stay required.

/** A string field that may be empty: missing reads as `''`. */
export const emptyString = z.string().default('');

/** A repeated field that may be empty: missing reads as `[]`. */
export const emptyList = <T extends z.ZodType>(element: T) => z.array(element).default(() => []);

/** A map field that may be empty: missing reads as `{}`. */
export const emptyMap = <T extends z.ZodType>(value: T) => z.record(z.string(), value).default(() => ({}));

/** A proto enum: accepts the value name or its number (index in `names`). */
export function protoEnum<const T extends readonly [string, ...string[]]>(names: T) {
  return z.preprocess((v) => {
    if (typeof v === 'number' && Number.isInteger(v)) return names[v] ?? v;
    return v;
  }, z.enum(names));
}

const intPattern = /^-?\d+$/;
/** int32: a JSON number or a numeric string. */
export const int32 = z.preprocess(
  (v) => (typeof v === 'string' && intPattern.test(v) ? Number(v) : v),
  z.number().int().min(-2147483648).max(2147483647),
);

/** bool: JSON boolean, or "true"/"false" (REST query parameters). */
export const bool = z.preprocess((v) => (v === 'true' ? true : v === 'false' ? false : v), z.boolean());

/** google.protobuf.Struct: a JSON object. */
export const struct = z.record(z.string(), z.unknown());

const rfc3339 = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:?\d{2})$/;
/** google.protobuf.Timestamp: RFC 3339 in, UTC millisecond `Z` form out. */
export const timestamp = z
  .string()
  .refine((s) => rfc3339.test(s) && !Number.isNaN(Date.parse(normalizeFraction(s))), {
    message: 'must be an RFC 3339 timestamp, e.g. 2025-10-28T10:30:00.000Z',
  })
  .transform((s) => new Date(Date.parse(normalizeFraction(s))).toISOString());

// Date.parse wants at most millisecond precision on every runtime; Python's isoformat() sends microseconds.
function normalizeFraction(s: string): string {
  return s.replace(/\.(\d{3})\d+/, '.$1').replace(/([+-]\d{2})(\d{2})$/, '$1:$2');
}

const base64Pattern = /^[A-Za-z0-9+/_-]*={0,2}$/;
/** bytes: base64 in (standard or URL-safe, padded or not), standard padded base64 out. */
export const bytes = z
  .string()
  .refine((s) => base64Pattern.test(s) && s.replace(/=+$/, '').length % 4 !== 1, { message: 'must be base64' })
  .transform((s) => {
    const std = s.replace(/-/g, '+').replace(/_/g, '/').replace(/=+$/, '');
    return std + '='.repeat((4 - (std.length % 4)) % 4);
  });

/** An absolute http(s) URL. */
export const httpUrl = z.string().refine((s) => /^https?:\/\//i.test(s) && URL.canParse(s), {
  message: 'must be an absolute http(s) URL',
});
