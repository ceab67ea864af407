import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { A2A_ERRORS, A2AError, fromZodError, isA2AError, taskNotFound, toA2AError } from './errors.js';

describe('A2A errors', () => {
  it('follows the v1.0.1 table', () => {
    const expected: Record<string, [number, number, string, string]> = {
      TaskNotFound: [-32001, 404, 'NOT_FOUND', 'TASK_NOT_FOUND'],
      TaskNotCancelable: [-32002, 400, 'FAILED_PRECONDITION', 'TASK_NOT_CANCELABLE'],
      PushNotificationNotSupported: [-32003, 400, 'FAILED_PRECONDITION', 'PUSH_NOTIFICATION_NOT_SUPPORTED'],
      UnsupportedOperation: [-32004, 400, 'FAILED_PRECONDITION', 'UNSUPPORTED_OPERATION'],
      ContentTypeNotSupported: [-32005, 400, 'INVALID_ARGUMENT', 'CONTENT_TYPE_NOT_SUPPORTED'],
      InvalidAgentResponse: [-32006, 500, 'INTERNAL', 'INVALID_AGENT_RESPONSE'],
      ExtendedAgentCardNotConfigured: [-32007, 400, 'FAILED_PRECONDITION', 'EXTENDED_AGENT_CARD_NOT_CONFIGURED'],
      ExtensionSupportRequired: [-32008, 400, 'FAILED_PRECONDITION', 'EXTENSION_SUPPORT_REQUIRED'],
      VersionNotSupported: [-32009, 400, 'FAILED_PRECONDITION', 'VERSION_NOT_SUPPORTED'],
      ParseError: [-32700, 400, 'INVALID_ARGUMENT', 'PARSE_ERROR'],
      InvalidParams: [-32602, 400, 'INVALID_ARGUMENT', 'INVALID_PARAMS'],
    };
    for (const [type, [code, http, grpc, reason]] of Object.entries(expected)) {
      expect(A2A_ERRORS[type as keyof typeof A2A_ERRORS]).toMatchObject({ code, http, grpc, reason });
    }
  });

  it('renders JSON-RPC errors and google.rpc.Status bodies with ErrorInfo', () => {
    const error = taskNotFound('t-1');
    expect(error.toJsonRpcError()).toEqual({
      code: -32001,
      message: 'Task not found: t-1',
      data: [
        {
          '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
          reason: 'TASK_NOT_FOUND',
          domain: 'a2a-protocol.org',
          metadata: { taskId: 't-1' },
        },
      ],
    });
    expect(error.toStatusBody().error).toMatchObject({
      code: 404,
      status: 'NOT_FOUND',
      message: 'Task not found: t-1',
    });
  });

  it('gives the transport-level refusals the google.rpc.Code that names them (REST `status`, gRPC)', () => {
    expect(new A2AError('PayloadTooLarge', 'too big').toStatusBody().error).toMatchObject({
      code: 413,
      status: 'RESOURCE_EXHAUSTED',
    });
    expect(new A2AError('UnsupportedMediaType', 'not JSON').toStatusBody().error).toMatchObject({
      code: 415,
      status: 'INVALID_ARGUMENT',
    });
  });

  it('names the offending fields of a validation error', () => {
    const parsed = z.object({ message: z.object({ role: z.string() }) }).safeParse({ message: {} });
    const error = fromZodError(parsed.error as z.ZodError);
    expect(error.code).toBe(-32602);
    expect(error.message).toContain('message.role');
    expect(error.details()[1]).toMatchObject({ fieldViolations: [{ field: 'message.role' }] });
  });

  it('hides unknown errors behind an internal error and recognises its own across copies', () => {
    const wrapped = toA2AError(new Error('db password is hunter2'));
    expect(wrapped.type).toBe('Internal');
    expect(wrapped.message).not.toContain('hunter2');
    expect(isA2AError(new A2AError('TaskNotFound', 'x'))).toBe(true);
    expect(isA2AError({ code: -32001 })).toBe(false);
  });
});
