import { createServer, type Socket } from 'node:net';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterEach, describe, expect, it } from 'vitest';
import { createPushSender, type DeliveryFailure, type DeliverySuccess, type PushSender } from '../src/index.js';
import { createNodePushSender } from '../src/node/index.js';
import { card, startServer } from './helpers.js';

// Same as `node --expose-gc`, for this worker only: a fresh context picks the flag up.
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const closers: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of closers.splice(0).reverse()) await c();
});

/** A webhook on 127.0.0.1 that accepts connections and, while `hang` is set, never answers; then answers 200. */
async function hungWebhook() {
  const sockets = new Set<Socket>();
  const state = { hang: true, requests: 0 };
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    socket.on('data', () => {
      state.requests++;
      if (!state.hang) socket.end('HTTP/1.1 200 OK\r\ncontent-length: 0\r\nconnection: close\r\n\r\n');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  closers.push(
    () =>
      new Promise<void>((r) => {
        for (const s of sockets) s.destroy();
        server.close(() => r());
      }),
  );
  return { url: `http://127.0.0.1:${(server.address() as { port: number }).port}/hook`, state };
}

/**
 * How long to wait for each outcome: a liveness bound, not a timing (each takes about ATTEMPT_TIMEOUT_MS; with a full
 * collection every 10 ms on a loaded 2-core machine, load average 26, the second took over 5 s).
 */
const LIVENESS_MS = 15_000;
/**
 * The attempt timeout under test. Long enough that, with a full collection every 10 ms at load 8–10, the request still
 * reaches the webhook in this process and the answering webhook's attempt is not timed out too (300 ms was not: the
 * attempt timed out before the webhook read its request, or the next event's attempt timed out as well).
 */
const ATTEMPT_TIMEOUT_MS = 1500;

/** Polls `done` while forcing full collections, as a busy server's heap would. */
async function underGcPressure(done: () => boolean, limitMs: number): Promise<void> {
  const end = Date.now() + limitMs;
  while (!done() && Date.now() < end) {
    gc();
    await new Promise((r) => setTimeout(r, 10));
  }
}

const senders: Record<string, (hooks: Parameters<typeof createPushSender>[0]) => PushSender> = {
  'the node:http sender': (options) => createNodePushSender(options),
  'the global fetch sender': (options) => createPushSender(options),
};

describe('push attempt timeout under garbage collection', () => {
  for (const [name, make] of Object.entries(senders)) {
    it(
      `${name}: a webhook that never answers times out, and the config's next event is delivered`,
      async () => {
        const webhook = await hungWebhook();
        const failures: DeliveryFailure[] = [];
        const delivered: DeliverySuccess[] = [];
        const sender = make({
          ssrf: { allow: ['127.0.0.1'] },
          timeoutMs: ATTEMPT_TIMEOUT_MS,
          retry: { maxAttempts: 1, failingAttempts: 1 },
          onDeliveryFailure: (f) => failures.push(f),
          onDelivered: (s) => delivered.push(s),
        });
        closers.push(() => sender.close());
        let release!: () => void;
        const released = new Promise<void>((r) => {
          release = r;
        });
        const executor = {
          async execute(ctx: { submit(): Promise<void>; working(): Promise<void>; complete(): Promise<void> }) {
            await ctx.submit();
            void (async () => {
              await ctx.working();
              await released;
              await ctx.complete();
            })();
          },
        };
        const server = await startServer({ agentCard: card, executor: executor as never, pushNotifications: sender });
        closers.push(server.close);
        const answer = await server.rpc('SendMessage', {
          message: { messageId: 'm1', role: 'ROLE_USER', parts: [{ text: 'x' }] },
          configuration: { returnImmediately: true, taskPushNotificationConfig: { id: 'c', url: webhook.url } },
        });
        const taskId = answer.body.result.task.id as string;

        // The WORKING event's attempt hangs; its timeout must fire however often the heap is collected.
        await underGcPressure(() => failures.length > 0, LIVENESS_MS);
        expect(webhook.state.requests).toBeGreaterThan(0);
        expect(failures).toEqual([
          expect.objectContaining({
            taskId,
            configId: 'c',
            health: 'failing',
            reason: `timed out after ${ATTEMPT_TIMEOUT_MS} ms`,
          }),
        ]);

        // The queue is free again: the next event of the same config goes out.
        webhook.state.hang = false;
        release();
        await underGcPressure(() => delivered.length > 0, LIVENESS_MS);
        expect(delivered).toEqual([expect.objectContaining({ taskId, configId: 'c', status: 200 })]);
        expect(delivered[0]?.seq).toBeGreaterThan(failures[0]?.seq ?? Number.POSITIVE_INFINITY);
      },
      3 * LIVENESS_MS,
    );
  }
});
