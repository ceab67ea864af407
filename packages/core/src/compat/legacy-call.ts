import { fromZodError } from '../errors.js';
import type { StreamResponse } from '../schemas/task.js';
import {
  OPERATIONS,
  type OperationEnv,
  type OperationName,
  type OperationOutput,
  parseParamsOf,
  withCall,
} from '../server/operations.js';
import { badShape, type LegacyVersion } from './shape.js';
import type { V01TaskIds } from './v01-task-ids.js';

// What the v0.3 and v0.1 method tables (v03-methods.ts, v01-methods.ts) share: a method's shape and the call that runs
// a v1.0 operation for it. Kept out of legacy-methods.ts, which imports both tables, so that no import goes in a circle.

/** What a legacy method produces: a unary JSON result, or v1.0 events plus their per-stream wire translator. */
export type LegacyResult =
  | { kind: 'unary'; result: unknown }
  | { kind: 'stream'; events: AsyncGenerator<StreamResponse>; frame: (event: StreamResponse) => unknown };

/** One method of an older wire; `ids` are the v0.1 client-chosen task ids (the v0.3 methods ignore them). */
export interface LegacyMethod {
  version: LegacyVersion;
  run(params: Record<string, unknown>, env: OperationEnv, ids: V01TaskIds): Promise<LegacyResult>;
}

/** Runs a v1.0 operation on translated params; validation errors say the request was read as `version`. */
export async function call<N extends OperationName>(
  name: N,
  params: unknown,
  env: OperationEnv,
  version: LegacyVersion,
): Promise<Awaited<OperationOutput<N>>> {
  const operation = OPERATIONS[name];
  const parsed = await parseParamsOf(name, params);
  if (!parsed.success) {
    const error = fromZodError(parsed.error);
    error.message = `${error.message} (request read as A2A ${version}, translated to ${name})`;
    throw error;
  }
  // Awaited here: TypeScript matches a generic result to the promised type only once it is awaited.
  return await operation.run(parsed.data, withCall(env, { protocolVersion: version }));
}

export const unary = (result: unknown): LegacyResult => ({ kind: 'unary', result });
export const requireString = (v: unknown, version: LegacyVersion, field: string): string => {
  if (typeof v !== 'string' || v === '') throw badShape(version, field, 'must be a non-empty string');
  return v;
};
