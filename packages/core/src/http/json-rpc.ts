import { A2AError, toA2AError } from '../errors.js';
import { parseParams, tenantScoped } from '../server/operation-params.js';
import { OPERATIONS, type Operation, type OperationEnv } from '../server/operations.js';
import { finishJsonBody, type JsonBody, jsonValue, readJsonBody, startJsonBody } from './body.js';
import { DEFAULT_MAX_JSON_DEPTH, depthError, tooDeepPath } from './json-depth.js';
import { resultEnvelope, resultHead } from './json-rpc-result.js';
import { type HeaderInit, type JsonRpcId, jsonResponse, jsonRpcErrorBody, jsonRpcErrorResponse } from './responses.js';
import { withChallenge } from './security.js';
import { type FrameOptions, type StreamSettings, streamResponse } from './stream.js';

export interface JsonRpcCall {
  id: JsonRpcId;
  method: string;
  params: unknown;
}

/**
 * Parses and checks the JSON-RPC 2.0 envelope (-32700 / -32600); JSON nested deeper than `maxDepth` is refused
 * (-32602 naming the field inside `params`, -32600 elsewhere), with the request's id.
 */
export function parseJsonRpc(source: string | JsonBody, maxDepth = DEFAULT_MAX_JSON_DEPTH): JsonRpcCall {
  const body = jsonValue(typeof source === 'string' ? { text: source } : source, Number.POSITIVE_INFINITY);
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new A2AError(
      'InvalidRequest',
      'Invalid request: expected a JSON-RPC 2.0 request object (batches are not supported)',
    );
  }
  const { jsonrpc, method, id, params } = body as Record<string, unknown>;
  const callId = isJsonRpcId(id) ? (id ?? null) : null;
  if (!isJsonRpcId(id))
    throw withId(new A2AError('InvalidRequest', 'Invalid request: id must be a string, a number or null'), null);
  if (jsonrpc !== '2.0') throw withId(new A2AError('InvalidRequest', 'Invalid request: jsonrpc must be "2.0"'), callId);
  if (typeof method !== 'string' || method === '') {
    throw withId(new A2AError('InvalidRequest', 'Invalid request: method must be a non-empty string'), callId);
  }
  const tooDeep = tooDeepPath(body, maxDepth);
  if (tooDeep) {
    const inParams = tooDeep[0] === 'params';
    throw withId(depthError(tooDeep, maxDepth, inParams ? 'InvalidParams' : 'InvalidRequest', 'params'), callId);
  }
  return { id: callId, method, params };
}

const isJsonRpcId = (id: unknown): id is JsonRpcId | undefined =>
  id === undefined || id === null || typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id));

/**
 * The id of a JSON-RPC request refused before its envelope was read (version, media type, caller), so that its
 * error answers with it (JSON-RPC 2.0 §5); `null` when the body cannot tell (too large, not JSON, no valid id).
 */
export async function peekJsonRpcId(request: Request, maxBytes: number): Promise<JsonRpcId> {
  try {
    const body = jsonValue(await readJsonBody(request, maxBytes), Number.POSITIVE_INFINITY);
    const id = typeof body === 'object' && body !== null ? (body as Record<string, unknown>).id : undefined;
    return isJsonRpcId(id) ? (id ?? null) : null;
  } catch {
    return null;
  }
}

/** Request ids travel with errors raised after the envelope was read. */
const ID = Symbol('jsonRpcId');
function withId(error: A2AError, id: JsonRpcId): A2AError {
  (error as unknown as Record<symbol, JsonRpcId>)[ID] = id;
  return error;
}
export const errorId = (error: unknown): JsonRpcId =>
  ((error as Record<symbol, JsonRpcId> | null)?.[ID] ?? null) as JsonRpcId;

/** What a JSON-RPC request is served with (the legacy version router is handed the same settings). */
export type JsonRpcSettings = StreamSettings & { maxBodyBytes: number; maxJsonDepth: number; headers: HeaderInit };

/**
 * The legacy-wire hook (compat/negotiate.ts makes it): `undefined` (or a promise of it) lets the v1.0 path serve the
 * call, otherwise the legacy wire's response. The version router answers a v1.0 call with a plain `undefined`, so the
 * v1.0 path awaits nothing here. Declared here, where it is called, so compat depends on http and not back.
 */
export type JsonRpcVersionRouter = (
  call: JsonRpcCall,
  env: OperationEnv,
  settings: JsonRpcSettings,
) => Promise<Response | undefined> | undefined;

/**
 * Serves one v1.0 JSON-RPC request. Never rejects. Not an async function: the body's promise (when the bridge has not
 * read it yet) is handed on with a `then`, and the call's own promise is the answer (two async frames per request
 * less, docs/performance.md "Hot-path tricks"); a legacy wire's routing goes on in an async function.
 */
export function serveJsonRpc(
  request: Request,
  env: OperationEnv,
  settings: JsonRpcSettings & { versions?: JsonRpcVersionRouter | undefined },
): Promise<Response> {
  let body: JsonBody | Promise<Uint8Array | undefined>;
  try {
    body = startJsonBody(request, settings.maxBodyBytes);
  } catch (error) {
    return Promise.resolve(callFailed(null, error, env, settings));
  }
  if (!(body instanceof Promise)) return serveJsonRpcBody(body, env, settings);
  return body.then(
    (bytes) => serveJsonRpcBytes(bytes, env, settings),
    (error: unknown) => callFailed(null, error, env, settings),
  );
}

/** {@link serveJsonRpc} once the bytes are read: checked and decoded here, not in a `then` of their own. */
function serveJsonRpcBytes(
  bytes: Uint8Array | undefined,
  env: OperationEnv,
  settings: JsonRpcSettings & { versions?: JsonRpcVersionRouter | undefined },
): Response | Promise<Response> {
  let body: JsonBody;
  try {
    body = finishJsonBody(bytes, settings.maxBodyBytes);
  } catch (error) {
    return callFailed(null, error, env, settings);
  }
  return serveJsonRpcBody(body, env, settings);
}

/** {@link serveJsonRpc} once the body is read. Never rejects. */
function serveJsonRpcBody(
  body: JsonBody,
  env: OperationEnv,
  settings: JsonRpcSettings & { versions?: JsonRpcVersionRouter | undefined },
): Promise<Response> {
  let id: JsonRpcId = null;
  try {
    const call = parseJsonRpc(body, settings.maxJsonDepth);
    id = call.id;
    env.telemetry?.method(call.method);
    // Older wires (v0.3/v0.2/v0.1, compat/) and dialects answer here; `undefined` means the call is read as v1.0.
    const routing = settings.versions?.(call, env, settings);
    if (routing) return routeLater(routing, call, env, settings);
    return serveJsonRpcCall(call, env, settings);
  } catch (error) {
    return Promise.resolve(callFailed(id, error, env, settings));
  }
}

/** {@link serveJsonRpcBody} for a call the version router is still deciding on. */
async function routeLater(
  routing: Promise<Response | undefined>,
  call: JsonRpcCall,
  env: OperationEnv,
  settings: JsonRpcSettings,
): Promise<Response> {
  try {
    const routed = await routing;
    if (routed) return routed;
    return await serveJsonRpcCall(call, env, settings);
  } catch (error) {
    return callFailed(call.id, error, env, settings);
  }
}

/** The error answer to a request that failed before its call ran (`id` `null` while the envelope was not read). */
function callFailed(id: JsonRpcId, error: unknown, env: OperationEnv, settings: JsonRpcSettings): Response {
  const a2a = toA2AError(error);
  if (a2a.type === 'Internal') settings.onError(error);
  return jsonRpcErrorResponse(id ?? errorId(error), a2a, withChallenge(a2a, env, settings.headers));
}

/** The operations as a call's runtime method name picks them, their types erased. */
const BY_METHOD: Readonly<Record<string, Operation>> = OPERATIONS;

/**
 * Runs a parsed call as the v1.0 method it names (dialects hand over their calls translated). Never rejects. Not an
 * async function: a unary call is its operation's promise with the answer built in `then` (an async frame per
 * request less, docs/performance.md "Hot-path tricks"), a stream is `streamResponse`'s promise; params still being checked
 * go on in an async function.
 */
export function serveJsonRpcCall(call: JsonRpcCall, env: OperationEnv, settings: JsonRpcSettings): Promise<Response> {
  const { id } = call;
  const failed = (error: unknown): Response => {
    env.telemetry?.fail(error);
    const a2a = toA2AError(error);
    if (a2a.type === 'Internal') settings.onError(error);
    return jsonRpcErrorResponse(id, a2a, withChallenge(a2a, env, settings.headers));
  };
  try {
    const operation = BY_METHOD[call.method];
    if (!operation || !Object.hasOwn(OPERATIONS, call.method)) {
      const near = similarMethod(call.method);
      throw new A2AError('MethodNotFound', `Method not found: ${call.method}${near ? ` (did you mean ${near}?)` : ''}`);
    }
    const checked = parseParams(operation, call.params);
    if (checked instanceof Promise) return runLater(operation, checked, env, settings, id, failed);
    const scoped = tenantScoped(env, checked);
    if (operation.stream) {
      return streamResponse(operation.run(checked, scoped), new JsonRpcFraming(id, settings)).then(undefined, failed);
    }
    return operation.run(checked, scoped).then((result) => {
      try {
        return jsonResponse({ jsonrpc: '2.0', id, result }, 200, settings.headers);
      } catch (error) {
        return failed(error);
      }
    }, failed);
  } catch (error) {
    return Promise.resolve(failed(error));
  }
}

/** {@link serveJsonRpcCall} for params still being checked. */
async function runLater(
  operation: Operation,
  checked: ReturnType<typeof parseParams>,
  env: OperationEnv,
  settings: JsonRpcSettings,
  id: JsonRpcId,
  failed: (error: unknown) => Response,
): Promise<Response> {
  try {
    const params = checked instanceof Promise ? await checked : checked;
    const scoped = tenantScoped(env, params);
    if (operation.stream) return await streamResponse(operation.run(params, scoped), new JsonRpcFraming(id, settings));
    const result = await operation.run(params, scoped);
    return jsonResponse({ jsonrpc: '2.0', id, result }, 200, settings.headers);
  } catch (error) {
    return failed(error);
  }
}

/** The v1.0 method a misspelt name means: `sendMessage`, `send_message` → `SendMessage`. */
function similarMethod(method: string): string | undefined {
  const key = method.toLowerCase().replace(/[^a-z]/g, '');
  return Object.keys(OPERATIONS).find((name) => name.toLowerCase() === key);
}

/**
 * A v1.0 JSON-RPC stream's framing: the call's id and settings as fields, the rest on the prototype. A stream stays
 * open for minutes, and three closures over the id with a merged settings object cost ~0.3 KB per open stream
 * (docs/performance.md, "Scale").
 */
class JsonRpcFraming implements FrameOptions {
  readonly #id: JsonRpcId;
  readonly #settings: JsonRpcSettings;
  /** The envelope's text before each event's JSON. */
  readonly #head: string | undefined;

  constructor(id: JsonRpcId, settings: JsonRpcSettings) {
    this.#id = id;
    this.#settings = settings;
    this.#head = resultHead(id);
  }

  get keepAliveMs(): number {
    return this.#settings.keepAliveMs;
  }
  get earlyErrors(): StreamSettings['earlyErrors'] {
    return this.#settings.earlyErrors;
  }
  get headers(): HeaderInit {
    return this.#settings.headers;
  }
  onError(error: unknown): void {
    this.#settings.onError(error);
  }
  frame(result: unknown): string {
    return resultEnvelope(this.#head, this.#id, result);
  }
  errorJson(error: A2AError): string {
    return jsonRpcErrorBody(this.#id, error);
  }
  earlyError(error: A2AError): Response {
    return jsonRpcErrorResponse(this.#id, error, this.#settings.headers);
  }
}
