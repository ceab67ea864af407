import { A2A_ERRORS, type A2AErrorType } from '@a2a/core/errors';
import { fail, pass, type Verdict } from '../check.js';
import type { GrpcAnswer } from '../grpc/grpc-call.js';
import type { Answer } from '../http.js';

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The JSON-RPC envelope of an answer: the body, or the first SSE event's data (a streaming method's error). */
export function rpcEnvelope(answer: Answer): unknown {
  if (answer.events) {
    const first = answer.events[0];
    if (first === undefined) return undefined;
    try {
      return JSON.parse(first);
    } catch {
      return undefined;
    }
  }
  return answer.json;
}

export const ANY_ID = Symbol('any id');

/** Short description of what came back, for a failure message. */
export function described(answer: Answer): string {
  const body = answer.text.length > 160 ? `${answer.text.slice(0, 160)}…` : answer.text;
  return `HTTP ${answer.status}${body ? ` ${body.replace(/\s+/g, ' ')}` : ' (empty body)'}`;
}

/**
 * A JSON-RPC error answer with `error` (spec §9.5): the code, a message, `data` (when present) an array of objects
 * each with `@type`. `codes` lists the acceptable codes, the first being the one named in messages.
 */
export function expectRpcError(answer: Answer, errors: A2AErrorType[], requestId: unknown = 1): Verdict {
  // ANY_ID: the request's id may be unreadable (bad input), so an error answering `null` or the id both do.
  if (answer.status >= 500) return fail(`expected ${named(errors)}, got ${described(answer)}`);
  const envelope = rpcEnvelope(answer);
  if (!isObject(envelope) || envelope.jsonrpc !== '2.0')
    return fail(`expected a JSON-RPC 2.0 error envelope, got ${described(answer)}`);
  const error = envelope.error;
  if (!isObject(error)) return fail(`expected ${named(errors)}, got a result: ${described(answer)}`);
  const codes: number[] = errors.map((e) => A2A_ERRORS[e].code);
  if (!codes.includes(error.code as number))
    return fail(`expected ${named(errors)}, got ${String(error.code)} "${String(error.message)}"`);
  if (typeof error.message !== 'string') return fail('the error has no "message" string (§9.5)');
  if (error.data !== undefined) {
    if (!Array.isArray(error.data) || !error.data.every((d) => isObject(d) && typeof d['@type'] === 'string'))
      return fail('error.data must be an array of objects, each with "@type" (§9.5)');
  }
  if (requestId !== ANY_ID && envelope.id !== requestId)
    return fail(
      `the error answers id ${JSON.stringify(envelope.id)}, the request's id was ${JSON.stringify(requestId)}`,
    );
  return pass(`${error.code} "${error.message}"`);
}

/**
 * An HTTP+JSON error (spec §11.6): the HTTP status from §5.4, a google.rpc.Status body whose `error.code` is that
 * status, and for A2A errors a `google.rpc.ErrorInfo` detail with the reason and domain `a2a-protocol.org`.
 */
export function expectRestError(answer: Answer, type: A2AErrorType): Verdict {
  const entry = A2A_ERRORS[type];
  const want = `HTTP ${entry.http} ${type}`;
  if (answer.status !== entry.http) return fail(`expected ${want}, got ${described(answer)}`);
  const body = answer.json;
  const error = isObject(body) ? body.error : undefined;
  if (!isObject(error))
    return fail(`expected a google.rpc.Status body {"error":{…}} (§11.6), got ${described(answer)}`);
  if (error.code !== entry.http)
    return fail(`error.code is ${JSON.stringify(error.code)}, the HTTP status is ${entry.http}`);
  if (typeof error.message !== 'string') return fail('the error has no "message" string (§11.6)');
  const details = error.details ?? [];
  if (!Array.isArray(details) || !details.every((d) => isObject(d) && typeof d['@type'] === 'string'))
    return fail('error.details must be an array of objects, each with "@type" (§11.6)');
  if (entry.code <= -32001 && entry.code >= -32099) {
    const info = details.find((d) => String(d['@type']).endsWith('google.rpc.ErrorInfo')) as Record<string, unknown>;
    if (!info)
      return fail(`no google.rpc.ErrorInfo in error.details (§11.6 MUST for A2A errors; reason ${entry.reason})`);
    if (info.reason !== entry.reason)
      return fail(`ErrorInfo.reason is ${JSON.stringify(info.reason)}, expected ${entry.reason}`);
    if (info.domain !== 'a2a-protocol.org')
      return fail(`ErrorInfo.domain is ${JSON.stringify(info.domain)}, expected a2a-protocol.org`);
  }
  return pass(`${answer.status} "${error.message}"`);
}

function named(errors: A2AErrorType[]): string {
  return errors.map((e) => `${A2A_ERRORS[e].code} ${e}`).join(' or ');
}

/** Short description of how a gRPC call ended, for a failure message. */
export function describedGrpc(answer: GrpcAnswer): string {
  if (answer.code === 0) {
    const body = JSON.stringify(answer.result ?? answer.events ?? {});
    return `OK ${body.length > 160 ? `${body.slice(0, 160)}…` : body}`;
  }
  const message = answer.message.length > 160 ? `${answer.message.slice(0, 160)}…` : answer.message;
  return `${answer.codeName}${message ? ` "${message}"` : ''}`;
}

/** The v1.0.0 table's gRPC code for errors whose code v1.0.1 changed to FAILED_PRECONDITION. */
const V100_GRPC: Partial<Record<A2AErrorType, string>> = {
  VersionNotSupported: 'UNIMPLEMENTED',
  UnsupportedOperation: 'UNIMPLEMENTED',
  PushNotificationNotSupported: 'UNIMPLEMENTED',
};

/**
 * A gRPC error (spec §10.6): the status code from §5.4, and for A2A errors a `google.rpc.ErrorInfo` in the status
 * details (`grpc-status-details-bin`) with the reason and domain `a2a-protocol.org`.
 */
export function expectGrpcError(answer: GrpcAnswer, type: A2AErrorType): Verdict {
  const entry = A2A_ERRORS[type];
  if (answer.codeName !== entry.grpc) {
    const old =
      V100_GRPC[type] === answer.codeName ? ` (${answer.codeName} is the v1.0.0 table's; v1.0.1 §5.4 changed it)` : '';
    return fail(`expected ${entry.grpc} ${type}, got ${describedGrpc(answer)}${old}`);
  }
  if (entry.code <= -32001 && entry.code >= -32099) {
    if (answer.detailsError) return fail(answer.detailsError);
    const info = answer.details?.errorInfo;
    if (!info)
      return fail(
        `no google.rpc.ErrorInfo in the status details (grpc-status-details-bin; §10.6 MUST for A2A errors; reason ${entry.reason})`,
      );
    if (info.reason !== entry.reason)
      return fail(`ErrorInfo.reason is ${JSON.stringify(info.reason)}, expected ${entry.reason}`);
    if (info.domain !== 'a2a-protocol.org')
      return fail(`ErrorInfo.domain is ${JSON.stringify(info.domain)}, expected a2a-protocol.org`);
  }
  return pass(describedGrpc(answer));
}
