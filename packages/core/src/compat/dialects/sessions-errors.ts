import { type A2AError, isA2AError } from '../../errors.js';
import { type HeaderInit, jsonResponse } from '../../http/responses.js';

// The sessions dialect's errors (seed document 004): `{error: {code, message, details}}` with a string `code` and the
// HTTP status that fits. A2A errors keep their v1.0 status; their code is the ErrorInfo reason in lower case
// (`task_not_found`, `invalid_params`, `unauthenticated`, ...); the session's own errors have codes of their own.

/** An error only the sessions dialect has (no A2A error means the same). */
export class SessionsError extends Error {
  constructor(
    readonly code: string,
    readonly status: number,
    message: string,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'SessionsError';
  }
}

export const sessionNotFound = (id: string) =>
  new SessionsError('session_not_found', 404, `Session not found: ${id}`, { session_id: id });

export const invalidRequest = (message: string, fields: { field: string; description: string }[] = []) =>
  new SessionsError('invalid_request', 400, message, fields.length ? { fields } : {});

export function sessionsErrorResponse(error: SessionsError | A2AError, headers: HeaderInit = {}): Response {
  if (!isA2AError(error)) {
    const { code, message, details } = error;
    return jsonResponse({ error: { code, message, details } }, error.status, headers);
  }
  const details: Record<string, unknown> = { reason: error.reason, ...error.metadata };
  if (error.fieldViolations?.length) details.fields = error.fieldViolations;
  return jsonResponse(
    { error: { code: error.reason.toLowerCase(), message: error.message, details } },
    error.httpStatus,
    headers,
  );
}
