import { A2A_ERRORS, A2AError, type A2AErrorType, type FieldViolation } from '@a2a/core/errors';

// Errors the agent answered, turned back into core's A2AError: the ErrorInfo `reason` names the type exactly; without
// one, the JSON-RPC code (or, for HTTP+JSON, the HTTP status) picks the type the table lists first for it.

const TYPES = Object.keys(A2A_ERRORS) as A2AErrorType[];
const byReason = new Map(TYPES.map((type) => [A2A_ERRORS[type].reason as string, type]));
const firstWith = (test: (type: A2AErrorType) => boolean): A2AErrorType | undefined => TYPES.find(test);

/** HTTP statuses whose first table entry is not the likely one (404 is TaskNotFound far more often than a method). */
const STATUS_TYPES: Record<number, A2AErrorType> = { 404: 'TaskNotFound', 400: 'InvalidParams', 500: 'Internal' };

interface Details {
  reason: string | undefined;
  metadata: Record<string, string> | undefined;
  fieldViolations: FieldViolation[] | undefined;
}

function readDetails(details: unknown): Details {
  const out: Details = { reason: undefined, metadata: undefined, fieldViolations: undefined };
  if (!Array.isArray(details)) return out;
  for (const detail of details) {
    if (typeof detail !== 'object' || detail === null) continue;
    const d = detail as Record<string, unknown>;
    const kind = String(d['@type'] ?? '');
    if (kind.endsWith('google.rpc.ErrorInfo')) {
      if (typeof d.reason === 'string') out.reason = d.reason;
      if (isStringRecord(d.metadata)) out.metadata = d.metadata;
    } else if (kind.endsWith('google.rpc.BadRequest') && Array.isArray(d.fieldViolations)) {
      out.fieldViolations = d.fieldViolations.filter(
        (v): v is FieldViolation => typeof v?.field === 'string' && typeof v?.description === 'string',
      );
    }
  }
  return out;
}

const isStringRecord = (value: unknown): value is Record<string, string> =>
  typeof value === 'object' &&
  value !== null &&
  !Array.isArray(value) &&
  Object.values(value).every((v) => typeof v === 'string');

function build(type: A2AErrorType, message: unknown, details: Details, fallback: string): A2AError {
  return new A2AError(type, typeof message === 'string' && message ? message : fallback, {
    ...(details.metadata ? { metadata: details.metadata } : {}),
    ...(details.fieldViolations?.length ? { fieldViolations: details.fieldViolations } : {}),
  });
}

/** A JSON-RPC `error` object as an A2AError. */
export function fromJsonRpcError(error: unknown): A2AError {
  if (typeof error !== 'object' || error === null) return invalidResponse('a JSON-RPC error without an error object');
  const e = error as Record<string, unknown>;
  const details = readDetails(e.data);
  const type =
    (details.reason && byReason.get(details.reason)) ||
    (typeof e.code === 'number' ? firstWith((t) => A2A_ERRORS[t].code === e.code) : undefined) ||
    'Internal';
  return build(type, e.message, details, `JSON-RPC error ${String(e.code)}`);
}

/** An HTTP+JSON error (a google.rpc.Status body, or none) as an A2AError. */
export function fromStatusError(status: number, body: unknown): A2AError {
  const error = (body as { error?: Record<string, unknown> } | undefined)?.error;
  const details = readDetails(error?.details);
  const type =
    (details.reason && byReason.get(details.reason)) ||
    STATUS_TYPES[status] ||
    firstWith((t) => A2A_ERRORS[t].http === status) ||
    (status >= 500 ? 'Internal' : 'InvalidRequest');
  return build(type, error?.message, details, `HTTP ${status}`);
}

/** The agent answered something that is not an A2A response (wrong shape, not JSON, wrong content type). */
export const invalidResponse = (what: string, cause?: unknown): A2AError =>
  new A2AError('InvalidAgentResponse', `Invalid agent response: ${what}`, cause === undefined ? {} : { cause });

/**
 * The agent could not be reached (refused, reset, no such host, TLS): `Unavailable`, naming the URL and the cause
 * (undici's own error says only "fetch failed").
 */
export function unreachable(url: string, error: unknown): A2AError {
  const cause = (error as { cause?: { code?: unknown; message?: unknown } } | undefined)?.cause;
  const why =
    typeof cause?.code === 'string' ? cause.code : String(cause?.message ?? (error as Error)?.message ?? error);
  return new A2AError('Unavailable', `Could not reach the agent at ${url}: ${why}`, { cause: error });
}
