import { A2AError } from '../errors.js';
import { isObject } from '../is-object.js';

/** The wire versions the compat layer speaks besides 1.0. */
export type LegacyVersion = '0.3' | '0.1';

/** Drops `undefined` members so the output carries only what was set. */
export function compact<T extends Record<string, unknown>>(o: T): { [K in keyof T]: Exclude<T[K], undefined> } {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(o)) if (v !== undefined) out[k] = v;
  return out as { [K in keyof T]: Exclude<T[K], undefined> };
}

/** -32602 whose message says which protocol version the request was read as. */
export function badShape(version: string, field: string, problem: string): A2AError {
  return new A2AError('InvalidParams', `Invalid params: ${field}: ${problem} (request read as A2A ${version})`, {
    fieldViolations: [{ field, description: problem }],
    metadata: { assumedVersion: version },
  });
}

export function optionalString(v: unknown, version: string, field: string): string | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'string') throw badShape(version, field, 'must be a string');
  return v;
}

export function optionalObject(v: unknown, version: string, field: string): Record<string, unknown> | undefined {
  if (v === undefined || v === null) return undefined;
  if (!isObject(v)) throw badShape(version, field, 'must be an object');
  return v;
}
