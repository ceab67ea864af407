import { grpcErrorProblem, httpStatusOf, jsonRpcErrorProblem, statusBodyProblem } from '@a2a/core/error-shapes';
import { A2A_ERRORS, type A2AErrorType } from '@a2a/core/errors';
import { fail, pass, type Verdict } from '../check.js';
import type { GrpcAnswer } from '../grpc/grpc-call.js';
import type { Answer } from '../http.js';

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
 * A JSON-RPC error answer (spec §9.5, the rules of `@a2a/core/error-shapes`): one of `errors`, answering
 * `requestId` (ANY_ID: the request's id may be unreadable, bad input, so an error answering `null` or the id both do).
 */
export function expectRpcError(answer: Answer, errors: A2AErrorType[], requestId: unknown = 1): Verdict {
  if (answer.status >= 500) return fail(`expected ${named(errors)}, got ${described(answer)}`);
  const envelope = rpcEnvelope(answer);
  const problem = jsonRpcErrorProblem(envelope, { errors, ...(requestId !== ANY_ID && { id: requestId }) });
  if (problem === 'not a JSON-RPC 2.0 envelope')
    return fail(`expected a JSON-RPC 2.0 error envelope, got ${described(answer)}`);
  if (problem) return fail(problem.endsWith('got a result') ? `${problem}: ${described(answer)}` : problem);
  const { error } = envelope as { error: { code: number; message: string } };
  return pass(`${error.code} "${error.message}"`);
}

/**
 * An HTTP+JSON error (spec §11.6): the HTTP status from §5.4, and the google.rpc.Status body `@a2a/core/error-shapes`
 * reads (for A2A errors a `google.rpc.ErrorInfo` detail with the reason and domain `a2a-protocol.org`).
 */
export function expectRestError(answer: Answer, type: A2AErrorType): Verdict {
  const status = httpStatusOf(type);
  if (answer.status !== status) return fail(`expected HTTP ${status} ${type}, got ${described(answer)}`);
  const problem = statusBodyProblem(answer.json, status, { type });
  if (problem?.startsWith('not a google.rpc.Status')) return fail(`expected ${problem}, got ${described(answer)}`);
  if (problem) return fail(problem);
  return pass(`${answer.status} "${(answer.json as { error: { message: string } }).error.message}"`);
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
 * A gRPC error (spec §10.6, the rules of `@a2a/core/error-shapes`): the status code from §5.4, and for A2A errors a
 * `google.rpc.ErrorInfo` in the status details (`grpc-status-details-bin`) with the reason and domain.
 */
export function expectGrpcError(answer: GrpcAnswer, type: A2AErrorType): Verdict {
  if (answer.detailsError && answer.codeName === A2A_ERRORS[type].grpc) return fail(answer.detailsError);
  // readStatusDetails kept the ErrorInfo whose type_url names it.
  const info = answer.details?.errorInfo;
  const details = info ? [{ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', ...info }] : [];
  const problem = grpcErrorProblem({ codeName: answer.codeName, described: describedGrpc(answer), details }, type);
  if (!problem) return pass(describedGrpc(answer));
  const old =
    V100_GRPC[type] === answer.codeName ? ` (${answer.codeName} is the v1.0.0 table's; v1.0.1 §5.4 changed it)` : '';
  return fail(problem + old);
}
