import type { z } from 'zod';

/**
 * Every error the protocol defines, with its JSON-RPC code, HTTP status and gRPC code (spec v1.0.1 table, §4.1).
 * ErrorInfo.reason is derived from the key (UPPER_SNAKE_CASE without "Error").
 */
export const A2A_ERRORS = {
  ParseError: { code: -32700, http: 400, grpc: 'INVALID_ARGUMENT', reason: 'PARSE_ERROR' },
  InvalidRequest: { code: -32600, http: 400, grpc: 'INVALID_ARGUMENT', reason: 'INVALID_REQUEST' },
  MethodNotFound: { code: -32601, http: 404, grpc: 'UNIMPLEMENTED', reason: 'METHOD_NOT_FOUND' },
  InvalidParams: { code: -32602, http: 400, grpc: 'INVALID_ARGUMENT', reason: 'INVALID_PARAMS' },
  Internal: { code: -32603, http: 500, grpc: 'INTERNAL', reason: 'INTERNAL' },
  TaskNotFound: { code: -32001, http: 404, grpc: 'NOT_FOUND', reason: 'TASK_NOT_FOUND' },
  TaskNotCancelable: { code: -32002, http: 400, grpc: 'FAILED_PRECONDITION', reason: 'TASK_NOT_CANCELABLE' },
  PushNotificationNotSupported: {
    code: -32003,
    http: 400,
    grpc: 'FAILED_PRECONDITION',
    reason: 'PUSH_NOTIFICATION_NOT_SUPPORTED',
  },
  UnsupportedOperation: { code: -32004, http: 400, grpc: 'FAILED_PRECONDITION', reason: 'UNSUPPORTED_OPERATION' },
  ContentTypeNotSupported: {
    code: -32005,
    http: 400,
    grpc: 'INVALID_ARGUMENT',
    reason: 'CONTENT_TYPE_NOT_SUPPORTED',
  },
  InvalidAgentResponse: { code: -32006, http: 500, grpc: 'INTERNAL', reason: 'INVALID_AGENT_RESPONSE' },
  ExtendedAgentCardNotConfigured: {
    code: -32007,
    http: 400,
    grpc: 'FAILED_PRECONDITION',
    reason: 'EXTENDED_AGENT_CARD_NOT_CONFIGURED',
  },
  ExtensionSupportRequired: {
    code: -32008,
    http: 400,
    grpc: 'FAILED_PRECONDITION',
    reason: 'EXTENSION_SUPPORT_REQUIRED',
  },
  VersionNotSupported: { code: -32009, http: 400, grpc: 'FAILED_PRECONDITION', reason: 'VERSION_NOT_SUPPORTED' },
  // Transport-level errors (no JSON-RPC code of their own; carried as HTTP statuses).
  Unauthenticated: { code: -32600, http: 401, grpc: 'UNAUTHENTICATED', reason: 'UNAUTHENTICATED' },
  PermissionDenied: { code: -32600, http: 403, grpc: 'PERMISSION_DENIED', reason: 'PERMISSION_DENIED' },
  // RESOURCE_EXHAUSTED: what gRPC itself answers for a message over the receiver's limit.
  PayloadTooLarge: { code: -32600, http: 413, grpc: 'RESOURCE_EXHAUSTED', reason: 'PAYLOAD_TOO_LARGE' },
  MethodNotAllowed: { code: -32601, http: 405, grpc: 'UNIMPLEMENTED', reason: 'METHOD_NOT_ALLOWED' },
  // An HTTP request the host could not read as one (an invalid Host header, a body the framework refused).
  BadRequest: { code: -32600, http: 400, grpc: 'INVALID_ARGUMENT', reason: 'BAD_REQUEST' },
  // A request body that is not JSON: the JSON-RPC code of ContentTypeNotSupported, as the TCK expects, and its
  // google.rpc.Code (INVALID_ARGUMENT: the request is wrong, not an unimplemented method) with the HTTP 415.
  UnsupportedMediaType: { code: -32005, http: 415, grpc: 'INVALID_ARGUMENT', reason: 'UNSUPPORTED_MEDIA_TYPE' },
  Unavailable: { code: -32603, http: 503, grpc: 'UNAVAILABLE', reason: 'UNAVAILABLE' },
} as const;

export type A2AErrorType = keyof typeof A2A_ERRORS;

export const ERROR_DOMAIN = 'a2a-protocol.org';
const BRAND = Symbol.for('@a2a/core/A2AError');

export interface FieldViolation {
  field: string;
  description: string;
}

export interface A2AErrorOptions {
  /** ErrorInfo metadata (string values only, per google.rpc.ErrorInfo). */
  metadata?: Record<string, string>;
  fieldViolations?: FieldViolation[];
  cause?: unknown;
}

/** The one error type of the library: every protocol error is an A2AError with a `type` from {@link A2A_ERRORS}. */
export class A2AError extends Error {
  readonly type: A2AErrorType;
  readonly metadata: Record<string, string> | undefined;
  readonly fieldViolations: FieldViolation[] | undefined;
  readonly [BRAND] = true;

  constructor(type: A2AErrorType, message: string, options: A2AErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = `A2AError(${type})`;
    this.type = type;
    this.metadata = options.metadata;
    this.fieldViolations = options.fieldViolations;
  }

  get code(): number {
    return A2A_ERRORS[this.type].code;
  }
  get httpStatus(): number {
    return A2A_ERRORS[this.type].http;
  }
  get grpcStatus(): string {
    return A2A_ERRORS[this.type].grpc;
  }
  get reason(): string {
    return A2A_ERRORS[this.type].reason;
  }

  /** Detail objects for JSON-RPC `error.data` and the REST Status `details`. */
  details(): Record<string, unknown>[] {
    const out: Record<string, unknown>[] = [
      {
        '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
        reason: this.reason,
        domain: ERROR_DOMAIN,
        ...(this.metadata ? { metadata: this.metadata } : {}),
      },
    ];
    if (this.fieldViolations?.length) {
      out.push({ '@type': 'type.googleapis.com/google.rpc.BadRequest', fieldViolations: this.fieldViolations });
    }
    return out;
  }

  /** JSON-RPC 2.0 error object. */
  toJsonRpcError(): { code: number; message: string; data: Record<string, unknown>[] } {
    return { code: this.code, message: this.message, data: this.details() };
  }

  /** REST (HTTP+JSON) body: google.rpc.Status JSON. */
  toStatusBody(): { error: { code: number; status: string; message: string; details: Record<string, unknown>[] } } {
    return {
      error: { code: this.httpStatus, status: this.grpcStatus, message: this.message, details: this.details() },
    };
  }
}

/** Works across duplicated copies of the package (bundles), unlike `instanceof`. */
export function isA2AError(e: unknown): e is A2AError {
  return typeof e === 'object' && e !== null && (e as Record<symbol, unknown>)[BRAND] === true;
}

export const taskNotFound = (taskId: string): A2AError =>
  new A2AError('TaskNotFound', `Task not found: ${taskId}`, { metadata: { taskId } });

export const invalidParams = (message: string, fieldViolations?: FieldViolation[]): A2AError =>
  new A2AError('InvalidParams', message, fieldViolations ? { fieldViolations } : {});

/** Turns a zod error into -32602 whose message names the offending fields. */
export function fromZodError(error: z.ZodError, prefix = ''): A2AError {
  const fieldViolations = error.issues.map((issue) => ({
    field: [prefix, ...issue.path.map(String)].filter(Boolean).join('.') || '(root)',
    description: issue.message,
  }));
  const summary = fieldViolations
    .slice(0, 3)
    .map((v) => `${v.field}: ${v.description}`)
    .join('; ');
  return invalidParams(`Invalid params: ${summary}`, fieldViolations);
}

/** Anything that is not an A2AError becomes an opaque internal error (its text is not leaked to the client). */
export function toA2AError(e: unknown): A2AError {
  if (isA2AError(e)) return e;
  return new A2AError('Internal', 'Internal error', { cause: e });
}
