import { z } from 'zod';
import {
  type Aliases,
  boolFromString,
  enumNumberToName,
  fieldNormalizer,
  int32FromString,
  isBase64,
  isHttpUrl,
  isTimestamp,
  toStandardBase64,
  toUtcTimestamp,
} from './plain.js';

// ProtoJSON input rules (spec §5.5, digest §2.1): field names in lowerCamelCase or proto snake_case, `null` means
// unset, unknown fields are ignored, enums by name or number, int32 as number or numeric string. Output is always
// the canonical camelCase form the schemas produce. The callbacks live in `plain.ts` (no Zod there), so the
// validators generated from these schemas can share them.

const snakeCase = (name: string): string => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/** A proto message: an object schema that also accepts snake_case names and treats `null` as unset. */
export function protoMessage<S extends z.ZodRawShape>(shape: S) {
  const aliases: Aliases = Object.keys(shape)
    .map((k) => [k, snakeCase(k)] as const)
    .filter(([camel, snake]) => camel !== snake);
  return z.preprocess(fieldNormalizer(aliases), z.object(shape));
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
  return z.preprocess(enumNumberToName(names), z.enum(names));
}

/** int32: a JSON number or a numeric string. */
export const int32 = z.preprocess(int32FromString, z.number().int().min(-2147483648).max(2147483647));

/** bool: JSON boolean, or "true"/"false" (REST query parameters). */
export const bool = z.preprocess(boolFromString, z.boolean());

/** google.protobuf.Struct: a JSON object. */
export const struct = z.record(z.string(), z.unknown());

/** google.protobuf.Timestamp: RFC 3339 in, UTC millisecond `Z` form out. */
export const timestamp = z
  .string()
  .refine(isTimestamp, { message: 'must be an RFC 3339 timestamp, e.g. 2025-10-28T10:30:00.000Z' })
  .transform(toUtcTimestamp);

/** bytes: base64 in (standard or URL-safe, padded or not), standard padded base64 out. */
export const bytes = z.string().refine(isBase64, { message: 'must be base64' }).transform(toStandardBase64);

/** An absolute http(s) URL. */
export const httpUrl = z.string().refine(isHttpUrl, { message: 'must be an absolute http(s) URL' });
