import type { A2AError } from '../errors.js';
import { textResponse } from './prepared.js';

export type HeaderInit = Record<string, string>;

export function jsonResponse(
  body: unknown,
  status = 200,
  headers: HeaderInit = {},
  contentType = 'application/json',
): Response {
  return textResponse(JSON.stringify(body), { status, headers: { 'content-type': contentType, ...headers } });
}

/** JSON-RPC error envelope; errors travel with HTTP 200 except HTTP-level ones (400 BadRequest/401/403/413/415). */
export function jsonRpcErrorBody(id: JsonRpcId, error: A2AError): string {
  return JSON.stringify({ jsonrpc: '2.0', id, error: error.toJsonRpcError() });
}

export function jsonRpcErrorResponse(id: JsonRpcId, error: A2AError, headers: HeaderInit = {}): Response {
  const status = HTTP_LEVEL.has(error.type) ? error.httpStatus : 200;
  return textResponse(jsonRpcErrorBody(id, error), {
    status,
    headers: { 'content-type': 'application/json', ...headers },
  });
}

/** REST errors: google.rpc.Status JSON with ErrorInfo. */
export function statusErrorResponse(
  error: A2AError,
  headers: HeaderInit = {},
  mediaType: RestMediaType = 'application/json',
): Response {
  return jsonResponse(error.toStatusBody(), error.httpStatus, headers, mediaType);
}

export type RestMediaType = 'application/json' | 'application/a2a+json';

/**
 * The media type of an HTTP+JSON answer: `application/a2a+json` (preferred by v1.0.1) to a client that names it in
 * `Accept` or sent its body as such, plain `application/json` (understood by every client and required by the TCK)
 * otherwise.
 */
export function restMediaType(request: Request): RestMediaType {
  const named = `${request.headers.get('accept') ?? ''},${request.headers.get('content-type') ?? ''}`;
  return named.toLowerCase().includes('application/a2a+json') ? 'application/a2a+json' : 'application/json';
}

export type JsonRpcId = string | number | null;

const HTTP_LEVEL = new Set([
  'Unauthenticated',
  'PermissionDenied',
  'PayloadTooLarge',
  'BadRequest',
  'UnsupportedMediaType',
  'Unavailable',
]);
