import type { z } from 'zod';
import { A2AError, fromZodError } from '../errors.js';
import type { JsonRpcCall, JsonRpcSettings, JsonRpcVersionRouter } from '../http/json-rpc.js';
import { isObject } from '../is-object.js';
import { onDemand } from '../on-demand.js';
import { OPERATIONS, type Operation, type OperationEnv, parseOperationParams } from '../server/operations.js';
import type { LegacyJsonRpc } from './legacy-json-rpc.js';
import { legacyVersionOf, SHARED_METHOD_NAMES } from './legacy-routes.js';
import type { LegacyVersion } from './shape.js';

/** Every `A2A-Version` (Major.Minor) one handler serves; 0.2 is read with the 0.3 wire (same JSON-RPC methods). */
export const SERVED_VERSIONS: ReadonlySet<string> = new Set(['1.0', '0.3', '0.2', '0.1']);

export interface VersionPolicy {
  /** Serve v0.3/v0.2/v0.1 next to v1.0. */
  legacy: boolean;
  /** Spec-literal: a request without `A2A-Version` is 0.3 (default: route by method name / path). */
  strictVersionHeader: boolean;
}

export function checkServedVersion(
  requested: string | undefined,
  policy: VersionPolicy,
  binding: 'jsonrpc' | 'rest' | 'rest-v0.3',
): void {
  const effective = requested ?? (policy.strictVersionHeader ? '0.3' : undefined);
  if (effective === undefined) return;
  // Looked up, not built: every request with an A2A-Version header asks (issue 39, docs/performance.md "Per request").
  const served = policy.legacy ? (binding === 'jsonrpc' ? SERVED_VERSIONS : SERVED_BY_REST[binding]) : V1_ONLY;
  if (!served.has(effective)) {
    const why = requested === undefined ? ' (no A2A-Version header, read as 0.3)' : '';
    const list = [...served];
    throw new A2AError(
      'VersionNotSupported',
      `A2A version ${effective} is not supported here${why} (served: ${list.join(', ')})`,
      {
        metadata: { requested: effective, supported: list.join(',') },
      },
    );
  }
}

const V1_ONLY: ReadonlySet<string> = new Set(['1.0']);
const SERVED_BY_REST: Readonly<Record<'rest' | 'rest-v0.3', ReadonlySet<string>>> = {
  rest: V1_ONLY,
  'rest-v0.3': new Set(['0.3', '0.2']),
};

/** Which wire a JSON-RPC call is read as; `MethodNotFound` naming the assumed version when name and version clash. */
export function jsonRpcWire(
  method: string,
  requested: string | undefined,
  policy: VersionPolicy,
): '1.0' | LegacyVersion {
  const legacyVersion = policy.legacy ? legacyVersionOf(method) : undefined;
  const isV1 = Object.hasOwn(OPERATIONS, method);
  const assumed = requested ?? (policy.strictVersionHeader ? '0.3' : undefined);
  if (assumed === undefined) return legacyVersion ?? '1.0';
  const how = requested === undefined ? 'no A2A-Version header' : `A2A-Version: ${requested}`;
  if (assumed === '1.0') {
    if (legacyVersion) {
      throw new A2AError(
        'MethodNotFound',
        `Method not found: ${method} is an A2A ${legacyVersion} method; the request was read as A2A 1.0 (${how})`,
        {
          metadata: { assumedVersion: '1.0' },
        },
      );
    }
    return '1.0';
  }
  if (isV1 || !legacyVersion) {
    const hint = isV1 ? ` ${method} is an A2A 1.0 method (send A2A-Version: 1.0)` : '';
    throw new A2AError(
      'MethodNotFound',
      `Method not found: ${method}; the request was read as A2A ${assumed} (${how}).${hint}`,
      {
        metadata: { assumedVersion: assumed },
      },
    );
  }
  if (assumed === '0.1') return '0.1';
  // An explicit 0.3/0.2 header does not reach the v0.1-only methods; header-less v0.1 clients (pre-header) do.
  if (legacyVersion === '0.1' && !SHARED_METHOD_NAMES.has(method) && requested !== undefined) {
    throw new A2AError(
      'MethodNotFound',
      `Method not found: ${method} is an A2A 0.1 method; the request was read as A2A ${assumed} (${how})`,
      {
        metadata: { assumedVersion: assumed },
      },
    );
  }
  return SHARED_METHOD_NAMES.has(method) || legacyVersion === '0.3' ? '0.3' : '0.1';
}

/** Does a v1.0 request carry v0.3 `kind` discriminators (mixed shapes)? */
function hasKind(params: unknown): boolean {
  if (!isObject(params)) return false;
  const message = params.message;
  if (!isObject(message)) return false;
  return 'kind' in message || (Array.isArray(message.parts) && message.parts.some((p) => isObject(p) && 'kind' in p));
}

// The legacy wires load at their first call, not at start-up (docs/performance.md, "Footprint"); a v1.0 call is told
// apart by name alone and returns synchronously, with no promise made.
const legacyJsonRpc = onDemand(() => import('./legacy-json-rpc.js'));

/**
 * The JSON-RPC version router: `undefined` lets the v1.0 path serve the call; otherwise the response of the
 * legacy wire. Errors thrown here are answered by the JSON-RPC layer with the request id.
 */
export function createJsonRpcVersionRouter(
  policy: VersionPolicy,
): (requested: string | undefined) => JsonRpcVersionRouter {
  let legacy: LegacyJsonRpc | undefined; // one per handler: it keeps the v0.1 clients' task id aliases
  async function serveLegacy(
    call: JsonRpcCall,
    env: OperationEnv,
    settings: JsonRpcSettings,
    wire: LegacyVersion,
    requested: string | undefined,
  ): Promise<Response> {
    if (!legacy) {
      const { LegacyJsonRpc } = await legacyJsonRpc();
      legacy ??= new LegacyJsonRpc();
    }
    return legacy.serve(call, env, settings, wire, requested);
  }
  return (requested: string | undefined) =>
    (call: JsonRpcCall, env: OperationEnv, settings: JsonRpcSettings): Promise<Response | undefined> | undefined => {
      const wire = jsonRpcWire(call.method, requested, policy);
      if (wire !== '1.0') return serveLegacy(call, env, settings, wire, requested);
      if (hasKind(call.params)) {
        const operation = (OPERATIONS as Record<string, Operation>)[call.method];
        const parsed = operation && parseOperationParams(operation, call.params);
        // A refusal comes as a promise (its field names from the Zod schema): the caller awaits the router's answer.
        if (parsed instanceof Promise) return parsed.then(readAsV1);
        if (parsed) readAsV1(parsed);
      }
      return undefined;
    };
}

/** A refused v1.0 call whose params carry `kind`: the error says it was read as A2A 1.0. */
function readAsV1(parsed: z.ZodSafeParseResult<unknown>): undefined {
  if (parsed.success) return undefined;
  const error = fromZodError(parsed.error);
  error.message = `${error.message} (request read as A2A 1.0, which has no \`kind\` discriminators; A2A 0.3 clients call message/send)`;
  throw error;
}
