import { describe, expect, it } from 'vitest';
import { grpcErrorProblem, isProtocolErrorCode, jsonRpcErrorProblem, statusBodyProblem } from '../src/error-shapes.js';
import { A2AError } from '../src/errors.js';

// The rules hold for what core itself answers, and each names what is wrong with an answer that breaks one.
const notFound = new A2AError('TaskNotFound', 'Task not found: t1', { metadata: { taskId: 't1' } });
const statusBody = (e: A2AError) => ({
  error: { code: e.httpStatus, status: e.grpcStatus, message: e.message, details: e.details() },
});

describe('@a2a/core/error-shapes', () => {
  it("core's own errors pass every rule", () => {
    const envelope = { jsonrpc: '2.0', id: 7, error: notFound.toJsonRpcError() };
    expect(jsonRpcErrorProblem(envelope, { errors: ['TaskNotFound'], id: 7 })).toBeUndefined();
    expect(statusBodyProblem(statusBody(notFound), 404, { type: 'TaskNotFound', statusName: true })).toBeUndefined();
    const details = notFound.details();
    expect(grpcErrorProblem({ codeName: 'NOT_FOUND', details }, 'TaskNotFound')).toBeUndefined();
  });

  it.each([
    [{ jsonrpc: '2.0', id: 1, result: {} }, { errors: ['TaskNotFound'] }, 'expected -32001 TaskNotFound, got a result'],
    [{ jsonrpc: '2.0', id: 1, error: { code: -32603, message: 'x' } }, { errors: ['TaskNotFound'] }, 'got -32603 "x"'],
    [{ jsonrpc: '2.0', id: 1, error: { code: 'x', message: 'm' } }, {}, 'not an integer'],
    [{ jsonrpc: '2.0', id: 1, error: { code: -32001 } }, {}, 'no "message" string'],
    [{ jsonrpc: '2.0', id: 1, error: { code: -32001, message: 'm', data: {} } }, {}, 'error.data must be an array'],
    [{ jsonrpc: '2.0', id: 2, error: { code: -32001, message: 'm' } }, { id: 1 }, 'answers id 2'],
    [{ id: 1, error: { code: -32001, message: 'm' } }, {}, 'not a JSON-RPC 2.0 envelope'],
  ] as const)('JSON-RPC %j: %s', (envelope, rule, problem) =>
    expect(jsonRpcErrorProblem(envelope, rule)).toContain(problem),
  );

  it.each([
    [{ message: 'x' }, {}, 'not a google.rpc.Status body'],
    [{ error: { code: 400, message: 'x' } }, {}, 'error.code is 400, the HTTP status is 404'],
    [{ error: { code: 404 } }, {}, 'no "message" string'],
    [{ error: { code: 404, message: 'x' } }, { statusName: true }, 'no "status" string'],
    [{ error: { code: 404, message: 'x', details: [{ reason: 'R' }] } }, {}, 'each with "@type"'],
    [{ error: { code: 404, message: 'x' } }, { type: 'TaskNotFound' }, 'no google.rpc.ErrorInfo'],
  ] as const)('HTTP+JSON %j: %s', (body, rule, problem) =>
    expect(statusBodyProblem(body, 404, rule)).toContain(problem),
  );

  it('gRPC: the code from §5.4, then the ErrorInfo of A2A errors only', () => {
    expect(grpcErrorProblem({ codeName: 'INTERNAL', described: 'INTERNAL "x"' }, 'TaskNotFound')).toBe(
      'expected NOT_FOUND TaskNotFound, got INTERNAL "x"',
    );
    expect(grpcErrorProblem({ codeName: 'NOT_FOUND' }, 'TaskNotFound')).toMatch(/^no google\.rpc\.ErrorInfo/);
    const wrongDomain = [{ type: 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'TASK_NOT_FOUND', domain: 'x' }];
    expect(grpcErrorProblem({ codeName: 'NOT_FOUND', details: wrongDomain }, 'TaskNotFound')).toMatch(/domain/);
    expect(grpcErrorProblem({ codeName: 'INVALID_ARGUMENT' }, 'InvalidParams')).toBeUndefined();
  });

  it("protocol error codes: JSON-RPC 2.0's predefined range and the A2A range", () => {
    expect([-32700, -32600, -32603, -32650, -32001, -32099].every(isProtocolErrorCode)).toBe(true);
    expect([-32000, -32100, -32599, -32701, 1, 1.5, '-32001'].some(isProtocolErrorCode)).toBe(false);
  });
});
