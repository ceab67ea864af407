import type { A2AError } from '../../errors.js';
import { type HeaderInit, jsonResponse } from '../../http/responses.js';

/**
 * The paraphrase's REST error: `{code, message, details}` at the top level, with the HTTP status of the v1.0 error
 * table. `code` is the A2A error code (as in JSON-RPC), which tells apart errors sharing a status (-32001 task not
 * found, -32601 no such method); `details` the typed details of v1.0 (google.rpc.ErrorInfo, ...).
 */
export function paraphraseErrorBody(error: A2AError): { code: number; message: string; details: unknown[] } {
  return { code: error.code, message: error.message, details: error.details() };
}

export function paraphraseErrorResponse(error: A2AError, headers: HeaderInit = {}): Response {
  return jsonResponse(paraphraseErrorBody(error), error.httpStatus, headers);
}
