// `@a2a/core/error-shapes`: the shapes an A2A error takes on each binding (spec v1.0.1 §3.3.2, §5.4, §9.5, §10.6,
// §11.6), as checks that say what is wrong with an answer, or `undefined` when nothing is. One source for every
// reader of answers: `@a2a/check` (any agent, from outside) and `@a2a/adapter-testsuite` (our adapters). Plain
// functions over the error table: no engine, no Zod, no test framework, nothing loaded by `@a2a/core` itself.
import { A2A_ERRORS, type A2AErrorType, ERROR_DOMAIN } from './errors.js';

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const ERROR_INFO = 'google.rpc.ErrorInfo';

/** An A2A-specific error (§3.3.2's table, codes -32001…-32099), the ones that MUST carry an ErrorInfo (§10.6, §11.6). */
export const isA2ASpecific = (type: A2AErrorType): boolean =>
  A2A_ERRORS[type].code <= -32001 && A2A_ERRORS[type].code >= -32099;

/** A code of JSON-RPC 2.0's predefined errors (-32700…-32600) or of A2A's range (-32001…-32099). */
export const isProtocolErrorCode = (code: unknown): boolean =>
  typeof code === 'number' &&
  Number.isInteger(code) &&
  ((code >= -32099 && code <= -32001) || (code >= -32700 && code <= -32600));

/** `-32001 TaskNotFound or …`: the errors a message names. */
const named = (errors: readonly A2AErrorType[]) => errors.map((e) => `${A2A_ERRORS[e].code} ${e}`).join(' or ');

/** §3.3.2: error details are an array of objects, each with a string `@type`. */
export function detailsProblem(details: unknown, where: string, section: string): string | undefined {
  return Array.isArray(details) && details.every((d) => isObject(d) && typeof d['@type'] === 'string')
    ? undefined
    : `${where} must be an array of objects, each with "@type" (${section})`;
}

/**
 * The `google.rpc.ErrorInfo` an A2A error carries (§10.6 and §11.6 MUST, §9.5 SHOULD): the reason from §5.4's
 * table and the domain `a2a-protocol.org`. `details` are the error's detail objects (`@type` or `type` naming them);
 * `where` and `section` say where it was looked for and which sentence asks for it, for the message.
 */
export function errorInfoProblem(
  details: readonly Record<string, unknown>[],
  type: A2AErrorType,
  where: string,
  section: string,
): string | undefined {
  const { reason } = A2A_ERRORS[type];
  const info = details.find((d) => String(d['@type'] ?? d.type ?? '').endsWith(ERROR_INFO));
  if (!info) return `no google.rpc.ErrorInfo in ${where} (${section} for A2A errors; reason ${reason})`;
  if (info.reason !== reason) return `ErrorInfo.reason is ${JSON.stringify(info.reason)}, expected ${reason}`;
  if (info.domain !== ERROR_DOMAIN)
    return `ErrorInfo.domain is ${JSON.stringify(info.domain)}, expected ${ERROR_DOMAIN}`;
  return undefined;
}

export interface JsonRpcErrorRule {
  /** The acceptable errors (the first named in messages); any code when absent. */
  errors?: readonly A2AErrorType[];
  /** The request's id the error must answer; not compared when absent. */
  id?: unknown;
}

/**
 * A JSON-RPC 2.0 error response (§9.5): `jsonrpc: "2.0"`, an `error` object with an integer `code` (one of `errors`
 * when given), a `message` string, `data` (when present) an array of objects each with `@type`, and the request's
 * `id` when given.
 */
export function jsonRpcErrorProblem(envelope: unknown, rule: JsonRpcErrorRule = {}): string | undefined {
  if (!isObject(envelope) || envelope.jsonrpc !== '2.0') return 'not a JSON-RPC 2.0 envelope';
  const { error } = envelope;
  const want = rule.errors?.length ? named(rule.errors) : 'an error';
  if (!isObject(error)) return `expected ${want}, got a result`;
  if (!Number.isInteger(error.code)) return `error.code is ${JSON.stringify(error.code)}, not an integer (§9.5)`;
  if (rule.errors?.length && !rule.errors.some((e) => A2A_ERRORS[e].code === error.code))
    return `expected ${want}, got ${String(error.code)} "${String(error.message)}"`;
  if (typeof error.message !== 'string') return 'the error has no "message" string (§9.5)';
  if (error.data !== undefined) {
    const wrong = detailsProblem(error.data, 'error.data', '§9.5');
    if (wrong) return wrong;
  }
  if ('id' in rule && envelope.id !== rule.id)
    return `the error answers id ${JSON.stringify(envelope.id)}, the request's id was ${JSON.stringify(rule.id)}`;
  return undefined;
}

export interface StatusBodyRule {
  /** The A2A error the body must be: its ErrorInfo is then required (for A2A-specific errors, §11.6). */
  type?: A2AErrorType;
  /** Require `error.status`, the gRPC code's name (§11.6's example; not among its MUSTs). */
  statusName?: boolean;
}

/**
 * An HTTP+JSON error body (§11.6): a google.rpc.Status `{"error": {…}}` whose `code` is the HTTP status, a `message`
 * string, `details` (when present) objects each with `@type`; for an A2A-specific `type`, an ErrorInfo with its
 * reason and domain.
 */
export function statusBodyProblem(body: unknown, httpStatus: number, rule: StatusBodyRule = {}): string | undefined {
  const error = isObject(body) ? body.error : undefined;
  if (!isObject(error)) return 'not a google.rpc.Status body {"error":{…}} (§11.6)';
  if (error.code !== httpStatus) return `error.code is ${JSON.stringify(error.code)}, the HTTP status is ${httpStatus}`;
  if (rule.statusName && typeof error.status !== 'string') return 'the error has no "status" string (§11.6)';
  if (typeof error.message !== 'string') return 'the error has no "message" string (§11.6)';
  const details = error.details ?? [];
  const wrong = detailsProblem(details, 'error.details', '§11.6');
  if (wrong) return wrong;
  if (rule.type && isA2ASpecific(rule.type))
    return errorInfoProblem(details as Record<string, unknown>[], rule.type, 'error.details', '§11.6 MUST');
  return undefined;
}

/** An A2A error's HTTP status (§5.4), e.g. 404 for TaskNotFound. */
export const httpStatusOf = (type: A2AErrorType): number => A2A_ERRORS[type].http;

/** A gRPC error status as far as it is read: the code's name and the details' ErrorInfo (`grpc-status-details-bin`). */
export interface GrpcErrorStatus {
  codeName: string;
  /** How the call ended, for the message when the code is wrong (default: the code's name). */
  described?: string;
  details?: readonly Record<string, unknown>[];
}

/** A gRPC error (§10.6): the status code from §5.4's table; for an A2A-specific error, an ErrorInfo in the details. */
export function grpcErrorProblem(status: GrpcErrorStatus, type: A2AErrorType): string | undefined {
  const entry = A2A_ERRORS[type];
  if (status.codeName !== entry.grpc)
    return `expected ${entry.grpc} ${type}, got ${status.described ?? status.codeName}`;
  if (!isA2ASpecific(type)) return undefined;
  return errorInfoProblem(status.details ?? [], type, 'the status details (grpc-status-details-bin)', '§10.6 MUST');
}
