import { A2AError } from '@a2a/core';
import { MAX_ID_LENGTH } from '@a2a/core/schemas';
import { status as code, Metadata, type ServiceError } from '@grpc/grpc-js';
import { afterEach, describe, expect, it } from 'vitest';
import { MAX_DETAILS_BYTES, MAX_MESSAGE_BYTES } from '../src/status-details.js';
import { type Harness, startHarness, userMessage } from './harness.js';
import { statusOf } from './status.js';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

describe('error trailers stay small, so the client gets its status and the channel keeps working', () => {
  it('an over-long task id is INVALID_ARGUMENT, not echoed, and the next call on the channel works', async () => {
    h = await startHarness();
    const id = 'x'.repeat(40_000);
    const error = await h.client.unary('GetTask', { id }).then(
      () => {
        throw new Error('expected the call to fail');
      },
      (e: ServiceError) => e,
    );
    expect(error.code).toBe(code.INVALID_ARGUMENT);
    expect(error.details).not.toContain('x'.repeat(100));
    expect(statusOf(error).fieldViolations?.map((v) => v.field)).toContain('id');
    // The longest accepted id is NOT_FOUND, its message within the budget.
    const notFound = await h.client.unary('GetTask', { id: 'y'.repeat(MAX_ID_LENGTH) }).catch((e: ServiceError) => e);
    expect((notFound as ServiceError).code).toBe(code.NOT_FOUND);
    expect(Buffer.byteLength((notFound as ServiceError).details)).toBeLessThanOrEqual(MAX_MESSAGE_BYTES);
    await expect(h.client.unary('SendMessage', userMessage('after'))).resolves.toHaveProperty('task');
  });

  it("a huge error from the caller's hook is clipped in grpc-message and the status details", async () => {
    const huge = 'é'.repeat(200_000);
    h = await startHarness({
      grpc: {
        context: (metadata) => {
          if (metadata.get('x-huge').length) {
            throw new A2AError('PermissionDenied', huge, {
              metadata: Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`k${i}`, huge])),
            });
          }
          return undefined;
        },
      },
    });
    const harness = h;
    const metadata = new Metadata();
    metadata.set('x-huge', '1');
    const error = await new Promise<ServiceError>((resolve, reject) => {
      harness.client.raw.makeUnaryRequest(
        '/lf.a2a.v1.A2AService/ListTasks',
        () => Buffer.alloc(0),
        (b: Buffer) => b,
        {},
        metadata,
        { deadline: Date.now() + 5000 },
        (e) => (e ? resolve(e as ServiceError) : reject(new Error('expected the call to fail'))),
      );
    });
    expect(error.code).toBe(code.PERMISSION_DENIED);
    expect(error.details.endsWith('…')).toBe(true);
    expect(Buffer.byteLength(error.details)).toBeLessThanOrEqual(MAX_MESSAGE_BYTES);
    const bin = error.metadata.get('grpc-status-details-bin')[0] as Buffer;
    expect(bin.length).toBeLessThanOrEqual(MAX_DETAILS_BYTES);
    const status = statusOf(error);
    expect(status.errorInfo?.reason).toBe('PERMISSION_DENIED');
    expect(status.message).toBe(error.details);
    await expect(h.client.unary('ListTasks', {})).resolves.toBeDefined();
  });
});
