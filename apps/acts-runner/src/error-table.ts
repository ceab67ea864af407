import type { ErrorTypeName } from './grammar.js';

/**
 * How each abstract ACTS error type appears on each binding. ACTS §6.2 defers to the A2A specification when its own
 * table disagrees, so these are v1.0.1's (§5.4 / §11.6): most A2A errors are HTTP 400 and gRPC FAILED_PRECONDITION,
 * told apart by the `google.rpc.ErrorInfo` reason, which REST and gRPC MUST carry. Two ACTS names have no v1.0.1
 * error of their own: a streaming call without the capability is UnsupportedOperationError, and an extended card
 * that is not configured is ExtendedAgentCardNotConfiguredError.
 */
export interface ErrorShape {
  jsonRpcCode: number;
  grpcStatus: string;
  httpStatus: number;
  /** ErrorInfo.reason; REST and gRPC answers must name it. Absent for the generic JSON-RPC errors. */
  reason?: string;
}

export const ERROR_TABLE: Record<ErrorTypeName, ErrorShape> = {
  TaskNotFoundError: { jsonRpcCode: -32001, grpcStatus: 'NOT_FOUND', httpStatus: 404, reason: 'TASK_NOT_FOUND' },
  TaskNotCancelableError: {
    jsonRpcCode: -32002,
    grpcStatus: 'FAILED_PRECONDITION',
    httpStatus: 400,
    reason: 'TASK_NOT_CANCELABLE',
  },
  PushNotificationNotSupportedError: {
    jsonRpcCode: -32003,
    grpcStatus: 'FAILED_PRECONDITION',
    httpStatus: 400,
    reason: 'PUSH_NOTIFICATION_NOT_SUPPORTED',
  },
  UnsupportedOperationError: {
    jsonRpcCode: -32004,
    grpcStatus: 'FAILED_PRECONDITION',
    httpStatus: 400,
    reason: 'UNSUPPORTED_OPERATION',
  },
  StreamingNotSupportedError: {
    jsonRpcCode: -32004,
    grpcStatus: 'FAILED_PRECONDITION',
    httpStatus: 400,
    reason: 'UNSUPPORTED_OPERATION',
  },
  ContentTypeNotSupportedError: {
    jsonRpcCode: -32005,
    grpcStatus: 'INVALID_ARGUMENT',
    httpStatus: 400,
    reason: 'CONTENT_TYPE_NOT_SUPPORTED',
  },
  ExtendedCardNotSupportedError: {
    jsonRpcCode: -32007,
    grpcStatus: 'FAILED_PRECONDITION',
    httpStatus: 400,
    reason: 'EXTENDED_AGENT_CARD_NOT_CONFIGURED',
  },
  ExtensionSupportRequiredError: {
    jsonRpcCode: -32008,
    grpcStatus: 'FAILED_PRECONDITION',
    httpStatus: 400,
    reason: 'EXTENSION_SUPPORT_REQUIRED',
  },
  VersionNotSupportedError: {
    jsonRpcCode: -32009,
    grpcStatus: 'FAILED_PRECONDITION',
    httpStatus: 400,
    reason: 'VERSION_NOT_SUPPORTED',
  },
  InvalidParamsError: { jsonRpcCode: -32602, grpcStatus: 'INVALID_ARGUMENT', httpStatus: 400 },
  JSONParseError: { jsonRpcCode: -32700, grpcStatus: 'INVALID_ARGUMENT', httpStatus: 400 },
  MethodNotFoundError: { jsonRpcCode: -32601, grpcStatus: 'UNIMPLEMENTED', httpStatus: 404 },
  InternalError: { jsonRpcCode: -32603, grpcStatus: 'INTERNAL', httpStatus: 500 },
};

/** An error as a binding reported it, in one shape for every binding. */
export interface WireError {
  /** JSON-RPC `error.code`. */
  jsonRpcCode?: number;
  /** HTTP status of the answer (REST, and JSON-RPC's HTTP-level refusals). */
  httpStatus?: number;
  /** gRPC status name. */
  grpcStatus?: string;
  /** ErrorInfo.reason from the error's details, when it has one. */
  reason?: string;
  message?: string;
  /** JSON-RPC `error.data`, REST `error.details`, gRPC's decoded `google.rpc.Status.details`. */
  details?: unknown;
}

/** Whether `error` is the abstract `type` on `binding`; when not, why. */
export function matchesErrorType(
  error: WireError,
  type: ErrorTypeName,
  binding: 'jsonrpc' | 'rest' | 'grpc',
): { ok: boolean; expected: string; actual: string } {
  const shape = ERROR_TABLE[type];
  if (binding === 'jsonrpc') {
    return {
      ok: error.jsonRpcCode === shape.jsonRpcCode,
      expected: `JSON-RPC code ${shape.jsonRpcCode}`,
      actual: error.jsonRpcCode === undefined ? `HTTP ${error.httpStatus}` : `JSON-RPC code ${error.jsonRpcCode}`,
    };
  }
  const [status, got] =
    binding === 'rest'
      ? [String(shape.httpStatus), String(error.httpStatus)]
      : [shape.grpcStatus, String(error.grpcStatus)];
  const label = binding === 'rest' ? 'HTTP' : 'gRPC';
  const ok = status === got && (shape.reason === undefined || error.reason === shape.reason);
  return {
    ok,
    expected: `${label} ${status}${shape.reason ? ` with ErrorInfo reason ${shape.reason}` : ''}`,
    actual: `${label} ${got}${error.reason ? ` with ErrorInfo reason ${error.reason}` : ' without an ErrorInfo reason'}`,
  };
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The ErrorInfo reason in a list of typed details (`@type` …google.rpc.ErrorInfo). */
export function errorInfoReason(details: unknown): string | undefined {
  if (!Array.isArray(details)) return undefined;
  const info = details.find((d) => isRecord(d) && String(d['@type']).endsWith('google.rpc.ErrorInfo'));
  return isRecord(info) && typeof info.reason === 'string' ? info.reason : undefined;
}
