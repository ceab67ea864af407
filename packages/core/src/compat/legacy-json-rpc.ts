import type { A2AError } from '../errors.js';
import type { JsonRpcCall, JsonRpcSettings } from '../http/json-rpc.js';
import type { HeaderInit } from '../http/responses.js';
import { jsonResponse, jsonRpcErrorBody, jsonRpcErrorResponse } from '../http/responses.js';
import { type FrameOptions, streamResponse } from '../http/stream.js';
import { isObject } from '../is-object.js';
import type { StreamResponse } from '../schemas/task.js';
import type { OperationEnv } from '../server/operations.js';
import { LegacyMethods } from './legacy-methods.js';
import { SHARED_METHOD_NAMES } from './legacy-routes.js';
import type { LegacyVersion } from './shape.js';

/**
 * Serves the JSON-RPC calls that negotiate.ts read as an older wire (v0.3/v0.2/v0.1). Imported by the version router
 * at the first such call (docs/performance.md, "Footprint").
 */
export class LegacyJsonRpc {
  private readonly legacy = new LegacyMethods();

  async serve(
    call: JsonRpcCall,
    env: OperationEnv,
    settings: JsonRpcSettings,
    read: LegacyVersion,
    requested: string | undefined,
  ): Promise<Response> {
    let wire = read;
    if (wire === '0.3' && requested === undefined && SHARED_METHOD_NAMES.has(call.method) && isObject(call.params)) {
      if (typeof call.params.id === 'string' && this.legacy.isV01Alias(call.params.id, env)) wire = '0.1';
    }
    const result = await this.legacy.run(call.method, call.params, env, wire);
    const id = call.id;
    if (result.kind === 'unary') {
      return jsonResponse({ jsonrpc: '2.0', id, result: result.result }, 200, legacyHeaders(settings.headers));
    }
    // Legacy stream clients only read text/event-stream (v0.3 SDKs answered every stream as SSE).
    const options: FrameOptions = {
      keepAliveMs: settings.keepAliveMs,
      earlyErrors: 'event-stream',
      onError: settings.onError,
      // Read once the first event is in: until then the executor may change the extensions it activates.
      get headers() {
        return legacyHeaders(settings.headers);
      },
      frame: (event: StreamResponse) => JSON.stringify({ jsonrpc: '2.0', id, result: result.frame(event) }),
      errorJson: (error: A2AError) => jsonRpcErrorBody(id, error),
      earlyError: (error: A2AError) => jsonRpcErrorResponse(id, error, legacyHeaders(settings.headers)),
    };
    return streamResponse(result.events, options);
  }
}

/** Older clients read the activated extensions from `X-A2A-Extensions` too. */
function legacyHeaders(headers: HeaderInit): HeaderInit {
  const extensions = headers['a2a-extensions'];
  return extensions ? { ...headers, 'x-a2a-extensions': extensions } : headers;
}
