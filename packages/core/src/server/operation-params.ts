import type { z } from 'zod';
import { A2AError, fromZodError } from '../errors.js';
import {
  type Operation,
  type OperationEnv,
  type OperationName,
  type OperationParams,
  parseOperationParams,
  parseParamsOf,
  withCall,
} from './operations.js';

// What every binding does with an operation's params before `run` (JSON-RPC, REST, the legacy wires, the dialects,
// gRPC): binding-neutral, so none of them reaches into another binding's file for it.

/** `params` must be an object without empty keys; absent means `{}`. */
export function checkParams(params: unknown): Record<string, unknown> {
  if (params === undefined || params === null) return {};
  if (typeof params !== 'object' || Array.isArray(params)) {
    throw new A2AError('InvalidParams', 'Invalid params: params must be an object');
  }
  if (Object.hasOwn(params, '')) throw new A2AError('InvalidParams', 'Invalid params: empty field name');
  return params as Record<string, unknown>;
}

/** The parsed params, or the InvalidParams error naming the fields. */
function dataOrThrow<T>(parsed: z.ZodSafeParseResult<T>): T {
  if (!parsed.success) throw fromZodError(parsed.error);
  return parsed.data;
}

/**
 * The params of an operation picked by a runtime name, checked; a refusal is InvalidParams naming the fields. Accepted
 * params come back synchronously; a refusal as a rejected promise (its field names come from the Zod schema, loaded
 * then), so callers write `const params = checked instanceof Promise ? await checked : checked`.
 */
export function parseParams(
  operation: Operation,
  params: unknown,
): Record<string, unknown> | Promise<Record<string, unknown>> {
  // Every request schema is an object schema; the erased `Operation` only knows its output as `unknown`.
  const parsed = parseOperationParams(operation, checkParams(params)) as
    | z.ZodSafeParseResult<Record<string, unknown>>
    | Promise<z.ZodSafeParseResult<Record<string, unknown>>>;
  return parsed instanceof Promise ? parsed.then(dataOrThrow) : dataOrThrow(parsed);
}

/** The same for an operation named in the code, typed as its params. */
export async function parseNamedParams<N extends OperationName>(name: N, params: unknown): Promise<OperationParams<N>> {
  return dataOrThrow(await parseParamsOf(name, checkParams(params)));
}

/** The env scoped to the `tenant` the params name, unless the transport already set one. */
export function tenantScoped(env: OperationEnv, params: Record<string, unknown>): OperationEnv {
  const tenant = params.tenant;
  if (env.call.tenant !== undefined || typeof tenant !== 'string' || tenant === '') return env;
  return withCall(env, { tenant });
}
