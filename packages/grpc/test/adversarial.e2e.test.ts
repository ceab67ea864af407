import { gzipSync } from 'node:zlib';
import { MAX_ID_LENGTH } from '@a2a/core/schemas';
import { create, toBinary } from '@bufbuild/protobuf';
import { BinaryWriter } from '@bufbuild/protobuf/wire';
import { status as code, type ServiceError } from '@grpc/grpc-js';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { A2AService, SendMessageRequestSchema } from '../src/gen/lf/a2a/v1/a2a_pb.js';
import { MAX_MESSAGE_BYTES } from '../src/status-details.js';
import { a2aClient, type Harness, startHarness } from './harness.js';
import { EMPTY_SETTINGS, grpcFrame, PREFACE, type RawSocket, rawGrpcCall, rawSocket } from './raw-connections.js';
import { statusOf } from './status.js';

// Generated hostile input for the gRPC listener, replayable: A2A_ADVERSARIAL_RUNS (cases per category) and
// A2A_ADVERSARIAL_SEED, as in @a2a/adapter-testsuite's adversarial suite. For every case: no crash, an answer (no
// hang), never INTERNAL or UNKNOWN for the client's mistake, no stack or file path in what comes back, and the same
// channel serves the next call.
const numRuns = Number(process.env.A2A_ADVERSARIAL_RUNS || 20);
const seed = Number(process.env.A2A_ADVERSARIAL_SEED || 0x2a2a);
const settings = { numRuns, seed, endOnFailure: true };

const SERVICE = '/lf.a2a.v1.A2AService';
const MAX_MESSAGE = 4096;
const LEAK = /\n\s+at |node_modules|\/work\/|file:\/\/|[\w-]+\.[cm]?[jt]s:\d+/;

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ grpc: { maxMessageBytes: MAX_MESSAGE } });
});
afterAll(() => h.close());

interface Outcome {
  code: number;
  details: string;
  error?: ServiceError;
}
const outcome = (promise: Promise<unknown>): Promise<Outcome> =>
  promise.then(
    () => ({ code: code.OK, details: '' }),
    (error: ServiceError) => ({ code: error.code, details: error.details ?? '', error }),
  );

/** The properties every answer has; then the channel still serves. */
async function wellBehaved(answer: Outcome) {
  expect([code.INTERNAL, code.UNKNOWN], answer.details).not.toContain(answer.code);
  expect(answer.details).not.toMatch(LEAK);
  if (answer.error?.metadata.get('grpc-status-details-bin').length) {
    expect(statusOf(answer.error).message).not.toMatch(LEAK);
  }
  expect(Buffer.byteLength(answer.details)).toBeLessThanOrEqual(MAX_MESSAGE_BYTES);
  await expect(h.client.unary('ListTasks', { pageSize: 1 })).resolves.toBeDefined();
}

const validSend = toBinary(
  SendMessageRequestSchema,
  create(SendMessageRequestSchema, {
    message: { messageId: 'adv', role: 1, parts: [{ content: { case: 'text', value: 'hello' } }] },
  }),
);
const unaries = A2AService.methods.filter((m) => m.methodKind === 'unary').map((m) => m.name);

/** A SendMessageRequest whose message metadata is a Struct nested `depth` levels deep. */
function deepStructSend(depth: number): Uint8Array {
  let value = new BinaryWriter().uint32(8).int32(0).finish(); // Value { null_value }
  for (let i = 0; i < depth; i++) {
    const entry = new BinaryWriter().uint32(10).string('a').uint32(18).bytes(value).finish();
    value = new BinaryWriter().uint32(42).bytes(new BinaryWriter().uint32(10).bytes(entry).finish()).finish(); // Value { struct_value }
  }
  const metadata = new BinaryWriter()
    .uint32(10)
    .bytes(new BinaryWriter().uint32(10).string('k').uint32(18).bytes(value).finish())
    .finish();
  const part = new BinaryWriter().uint32(10).string('deep').finish();
  const message = new BinaryWriter()
    .uint32(10)
    .string(`deep-${depth}`)
    .uint32(32)
    .int32(1)
    .uint32(42)
    .bytes(part)
    .uint32(50)
    .bytes(metadata)
    .finish();
  return new BinaryWriter().uint32(18).bytes(message).finish();
}

describe('adversarial gRPC input (generated)', () => {
  it('malformed protobuf: truncated, flipped, spliced and lying length prefixes', async () => {
    const mutation = fc.oneof(
      fc.nat().map((n) => (b: Uint8Array) => b.subarray(0, n % b.length)),
      fc.tuple(fc.nat(), fc.integer({ min: 1, max: 255 })).map(([i, x]) => (b: Uint8Array) => {
        const out = Uint8Array.from(b);
        out[i % out.length] = (out[i % out.length] as number) ^ x;
        return out;
      }),
      fc.tuple(fc.nat(), fc.uint8Array({ minLength: 1, maxLength: 16 })).map(([i, junk]) => (b: Uint8Array) => {
        const at = i % b.length;
        return Uint8Array.from([...b.subarray(0, at), ...junk, ...b.subarray(at)]);
      }),
      // field 2 (message) claiming far more bytes than follow, or a varint that never ends
      fc.constantFrom(
        () => Uint8Array.of(0x12, 0xff, 0xff, 0xff, 0xff, 0x0f, 1),
        () => Uint8Array.of(0x08, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff),
        () => Uint8Array.of(0x0b), // a start-group with no end
      ),
    );
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...unaries), mutation, async (method, mutate) => {
        await wellBehaved(await outcome(h.client.rawUnary(`${SERVICE}/${method}`, mutate(validSend))));
      }),
      settings,
    );
  });

  it('oversize messages, plain and gzip-compressed: RESOURCE_EXHAUSTED', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: MAX_MESSAGE + 1, max: MAX_MESSAGE * 64 }),
        fc.boolean(),
        async (size, gzip) => {
          const bytes = new BinaryWriter().uint32(18).bytes(new Uint8Array(size)).finish();
          if (!gzip) {
            const answer = await outcome(h.client.rawUnary(`${SERVICE}/SendMessage`, bytes));
            expect(answer.code).toBe(code.RESOURCE_EXHAUSTED);
            return wellBehaved(answer);
          }
          const raw = await rawGrpcCall(h.address, `${SERVICE}/SendMessage`, grpcFrame(gzipSync(bytes), true), {
            headers: { 'grpc-encoding': 'gzip' },
          });
          expect(raw.grpcStatus).toBe(code.RESOURCE_EXHAUSTED);
          expect(raw.text).not.toMatch(LEAK);
          await wellBehaved({ code: code.OK, details: '' });
        },
      ),
      { ...settings, numRuns: Math.min(numRuns, 10) },
    );
  });

  it('deep Struct metadata: stored when shallow, INVALID_ARGUMENT (not a parse error) past the decoder limit', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 400 }), async (depth) => {
        const answer = await outcome(h.client.rawUnary(`${SERVICE}/SendMessage`, deepStructSend(depth)));
        // RESOURCE_EXHAUSTED: the deepest ones are also over maxMessageBytes
        expect([code.OK, code.INVALID_ARGUMENT, code.RESOURCE_EXHAUSTED]).toContain(answer.code);
        if (answer.code === code.INVALID_ARGUMENT && answer.error) {
          expect(statusOf(answer.error).errorInfo?.reason).not.toBe('PARSE_ERROR');
        }
        await wellBehaved(answer);
      }),
      settings,
    );
    // Whatever was stored can be read back.
    await expect(h.client.unary('ListTasks', { pageSize: 100 })).resolves.toBeDefined();
  });

  it('long ids on every id-carrying call: INVALID_ARGUMENT past the limit (not echoed), trailers small', async () => {
    const requests: Record<string, (id: string) => Record<string, unknown>> = {
      GetTask: (id) => ({ id }),
      CancelTask: (id) => ({ id }),
      GetTaskPushNotificationConfig: (id) => ({ taskId: id, id: 'c' }),
      DeleteTaskPushNotificationConfig: (id) => ({ taskId: 't', id }),
      ListTaskPushNotificationConfigs: (id) => ({ taskId: id }),
      ListTasks: (id) => ({ contextId: id }),
      SendMessage: (id) => ({ message: { messageId: 'm', taskId: id, role: 'ROLE_USER', parts: [{ text: 'x' }] } }),
    };
    const length = fc.oneof(
      fc.integer({ min: MAX_ID_LENGTH - 2, max: MAX_ID_LENGTH + 2 }),
      fc.integer({ min: MAX_ID_LENGTH + 1, max: 100_000 }),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...Object.keys(requests)),
        length,
        fc.constantFrom('x', 'é', '😀'),
        async (method, n, char) => {
          const id = char.repeat(n); // n characters (code points, as the schemas count them)
          const answer = await outcome(
            h.client.unary(method, (requests[method] as (id: string) => Record<string, unknown>)(id)),
          );
          if (n > MAX_ID_LENGTH) {
            // RESOURCE_EXHAUSTED: the longest are over maxMessageBytes, refused before they are read
            expect([code.INVALID_ARGUMENT, code.RESOURCE_EXHAUSTED]).toContain(answer.code);
            expect(answer.details).not.toContain(char.repeat(64));
          }
          await wellBehaved(answer);
        },
      ),
      settings,
    );
  });

  it('abrupt disconnects mid-call (cut frames, stream resets, dropped connections): the server serves on', async () => {
    const send = grpcFrame(validSend);
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('SendMessage', 'SendStreamingMessage', 'GetTask'),
        fc.nat(send.length),
        fc.constantFrom('cancel', 'destroy', undefined),
        async (method, cut, abort) => {
          const answer = await rawGrpcCall(h.address, `${SERVICE}/${method}`, send.subarray(0, cut), {
            ...(abort && { abort }),
          });
          if (!abort && answer.grpcStatus !== undefined) {
            expect([code.INTERNAL, code.UNKNOWN]).not.toContain(answer.grpcStatus);
          }
          expect(answer.text).not.toMatch(LEAK);
          await wellBehaved({ code: code.OK, details: '' });
        },
      ),
      settings,
    );
  });

  it('documented exceptions (grpc-js answers them before any handler): a corrupt gzip body, a malformed grpc-timeout', async () => {
    const corrupt = await rawGrpcCall(h.address, `${SERVICE}/GetTask`, grpcFrame(Buffer.from('not gzip'), true), {
      headers: { 'grpc-encoding': 'gzip' },
    });
    expect([corrupt.grpcStatus, corrupt.grpcMessage]).toEqual([code.INTERNAL, 'Failed to decompress message']);
    await fc.assert(
      fc.asyncProperty(fc.stringMatching(/^[0-9]{1,8}[HMSmun]$/), fc.string({ maxLength: 12 }), async (good, bad) => {
        const valid = await rawGrpcCall(h.address, `${SERVICE}/GetTask`, grpcFrame(new Uint8Array()), {
          headers: { 'grpc-timeout': good },
        });
        expect(valid.grpcStatus).toBe(code.INVALID_ARGUMENT); // no id; DEADLINE_EXCEEDED never comes first here
        const malformed = /^\d{1,8}[HMSmun]$/.test(bad) ? undefined : bad.replace(/[^\x21-\x7e]/g, '');
        if (!malformed) return;
        const answer = await rawGrpcCall(h.address, `${SERVICE}/GetTask`, grpcFrame(new Uint8Array()), {
          headers: { 'grpc-timeout': malformed },
        });
        expect(answer.grpcStatus).toBe(code.INTERNAL);
        expect(answer.text).not.toMatch(LEAK);
        await wellBehaved({ code: code.OK, details: '' });
      }),
      { ...settings, numRuns: Math.min(numRuns, 10) },
    );
  });
});

describe('adversarial connections (generated)', () => {
  it('partial prefaces and silent connections are closed after the deadlines; calls still work', async () => {
    const g = await startHarness({ grpc: { connectionTimeoutMs: 100, idleTimeoutMs: 150 } });
    try {
      const opening = Buffer.concat([PREFACE, EMPTY_SETTINGS]);
      // All at once: each waits for a deadline, so the cases run side by side.
      const prefixes = fc.sample(fc.integer({ min: 0, max: opening.length }), { seed, numRuns });
      const sockets = await Promise.all(prefixes.map((n) => rawSocket(g.address, opening.subarray(0, n))));
      await Promise.all(sockets.map((s) => s.closed));
      await expect(g.client.unary('ListTasks', {})).resolves.toBeDefined();
    } finally {
      await g.close();
    }
  });

  it('a burst past maxConnections: the excess is closed at once, the rest stay until they are done', async () => {
    const cap = 4;
    const g = await startHarness({ grpc: { maxConnections: cap, connectionTimeoutMs: 60_000 } });
    try {
      g.client.close(); // its channel would take a slot
      const [extra] = fc.sample(fc.integer({ min: 1, max: 8 }), { seed, numRuns: 1 });
      const sockets: RawSocket[] = [];
      for (let i = 0; i < cap + (extra as number); i++)
        sockets.push(await rawSocket(g.address, PREFACE.subarray(0, i % 3)));
      let closed = 0;
      await new Promise<void>((resolve) => {
        for (const s of sockets) {
          void s.closed.then(() => {
            if (++closed === extra) resolve();
          });
        }
      });
      expect(sockets.filter((s) => !s.socket.closed)).toHaveLength(cap);
      for (const s of sockets) s.socket.destroy();
      await expect
        .poll(async () => {
          const client = a2aClient(g.address);
          const ok = await outcome(client.unary('ListTasks', {}));
          client.close();
          return ok.code;
        })
        .toBe(code.OK);
    } finally {
      await g.close();
    }
  });
});
