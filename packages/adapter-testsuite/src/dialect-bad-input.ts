import { createA2AHandler } from '@a2a/core';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { goldenCard, goldenExecutor } from './golden-agent.js';
import type { AdapterHarness, StartedServer } from './harness.js';

// Generated bad input for the dialects (seed documents 002 and 004) through the adapter: every answer is the
// dialect's own error shape with a 4xx status (never a 5xx, never a stack or a file path), and the server keeps
// serving. Bounded: a fixed seed and a few dozen cases per dialect.

const NUM_RUNS = Number(process.env.A2A_DIALECT_RUNS ?? 60);
const SEED = 0xd1a1;
const LEAK = /node_modules|\/work\/|file:\/\/|\.[cm]?[jt]s:\d+:\d+|\bat [\w.<>]+ \(/;

interface Case {
  method: string;
  path: string;
  contentType: string;
  body?: string;
}

const json = fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v));
const junkText = fc.string({ maxLength: 40 });
const segment = fc.oneof(fc.constant('<session>'), fc.uuid(), fc.string({ minLength: 1, maxLength: 12 }));
const junk = fc.jsonValue({ maxDepth: 2 });
/** A send body whose fields are each either plausible or junk. */
const messageBody = fc
  .record({
    role: fc.oneof(fc.constantFrom('user', 'system', 'agent', ''), junk),
    content: fc.oneof(fc.string({ maxLength: 20 }), junk),
    in_reply_to: fc.option(junk, { nil: undefined }),
    metadata: fc.option(junk, { nil: undefined }),
    artifacts: fc.option(
      fc.oneof(
        junk,
        fc.array(
          fc.record(
            {
              id: fc.oneof(fc.string({ maxLength: 8 }), junk),
              type: fc.oneof(fc.constantFrom('url/reference', 'image/png', 'application/json', 'x/y'), junk),
              data: fc.oneof(fc.constantFrom('base64:%%%', 'base64:', 'not a url', ''), junk),
            },
            { requiredKeys: [] },
          ),
          { maxLength: 3 },
        ),
      ),
      { nil: undefined },
    ),
  })
  .map((v) => JSON.stringify(v));
const sessionBody = fc.oneof(json, junkText, messageBody);
const query = fc.oneof(
  fc.constant(''),
  fc.string({ maxLength: 10 }).map((s) => `?limit=${encodeURIComponent(s)}`),
  fc.string({ maxLength: 16 }).map((s) => `?cursor=${encodeURIComponent(s)}`),
  fc.constantFrom('?limit=0', '?limit=101', '?limit=-1', '?limit=1.5', '?cursor=after:x', '?cursor=before:'),
);

/** Requests on the one live session's routes, where most of the dialect's reading happens. */
const targetedSessionCases: fc.Arbitrary<Case> = fc.oneof(
  query.map((q) => ({ method: 'GET', path: `/sessions/<session>/messages${q}`, contentType: 'application/json' })),
  messageBody.map((body) => ({
    method: 'POST',
    path: '/sessions/<session>/messages',
    contentType: 'application/json',
    body,
  })),
  sessionBody.map((body) => ({ method: 'POST', path: '/sessions', contentType: 'application/json', body })),
);

const diffuseSessionCases: fc.Arbitrary<Case> = fc
  .record({
    method: fc.constantFrom('GET', 'POST', 'DELETE', 'PUT', 'PATCH'),
    route: fc.constantFrom('/sessions', '/sessions/{id}', '/sessions/{id}/messages', '/sessions/{id}/stream', '/card'),
    id: segment,
    query,
    contentType: fc.constantFrom('application/json', 'text/plain', 'application/json; charset=utf-8'),
    body: fc.option(sessionBody, { nil: undefined }),
  })
  .map(({ method, route, id, query, contentType, body }) => ({
    method,
    path: `${route.replace('{id}', encodeURIComponent(id).replace('%3Csession%3E', '<session>'))}${query}`,
    contentType,
    ...(method !== 'GET' && body !== undefined && { body }),
  }));

const sessionCases = fc.oneof(targetedSessionCases, diffuseSessionCases);

const paraphraseBody = fc.oneof(
  json,
  junkText,
  fc
    .record(
      {
        message: fc.oneof(
          fc.jsonValue({ maxDepth: 2 }),
          fc.record(
            {
              role: fc.oneof(fc.constantFrom('user', 'agent', 'ROLE_USER'), fc.jsonValue()),
              messageId: fc.oneof(fc.uuid(), fc.jsonValue()),
              parts: fc.oneof(
                fc.jsonValue({ maxDepth: 2 }),
                fc.array(
                  fc.oneof(
                    fc.record({ text: fc.jsonValue() }),
                    fc.record({ file: fc.jsonValue({ maxDepth: 2 }), mimeType: fc.jsonValue() }),
                    fc.record({ structuredData: fc.jsonValue({ maxDepth: 2 }) }),
                  ),
                  { maxLength: 3 },
                ),
              ),
            },
            { requiredKeys: [] },
          ),
        ),
        configuration: fc.jsonValue({ maxDepth: 2 }),
        configId: fc.jsonValue(),
        pushNotificationConfig: fc.jsonValue({ maxDepth: 2 }),
      },
      { requiredKeys: [] },
    )
    .map((v) => JSON.stringify(v)),
);

const paraphraseCases: fc.Arbitrary<Case> = fc
  .record({
    method: fc.constantFrom('GET', 'POST', 'DELETE', 'PUT'),
    route: fc.constantFrom(
      '/messages',
      '/messages/stream',
      '/tasks/{id}/stream',
      '/tasks/{id}/notifications',
      '/tasks/{id}/notifications/{id}',
      '/agent-card',
    ),
    id: fc.oneof(fc.uuid(), fc.string({ minLength: 1, maxLength: 12 })),
    query: fc.oneof(fc.constant(''), fc.constantFrom('?page_size=x', '?page_size=-4', '?page_token=zz')),
    contentType: fc.constantFrom('application/json', 'text/plain'),
    body: fc.option(paraphraseBody, { nil: undefined }),
  })
  .map(({ method, route, id, query, contentType, body }) => ({
    method,
    path: `${route.replaceAll('{id}', encodeURIComponent(id))}${query}`,
    contentType,
    ...(method !== 'GET' && body !== undefined && { body }),
  }));

function parseOrText(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

const rpcCases: fc.Arbitrary<Case> = fc
  .record({
    method: fc.constantFrom(
      'A2A.SendMessage',
      'A2A.SendStreamingMessage',
      'A2A.GetTask',
      'A2A.CancelTask',
      'A2A.SubscribeToTask',
      'A2A.CreateTaskPushNotificationConfig',
      'A2A.GetTaskPushNotificationConfig',
      'A2A.ListTaskPushNotificationConfig',
      'A2A.GetExtendedAgentCard',
      'A2A.',
      'A2A.constructor',
      'A2A.__proto__',
    ),
    params: fc.oneof(fc.jsonValue({ maxDepth: 3 }), paraphraseBody.map(parseOrText)),
  })
  .map(({ method, params }) => ({
    method: 'POST',
    path: '/',
    contentType: 'application/json',
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  }));

/** The checks every dialect answer passes, whatever its shape. */
async function answer(base: string, c: Case, session: string) {
  const response = await fetch(`${base}${c.path.replace('<session>', session)}`, {
    method: c.method,
    headers: { 'content-type': c.contentType, 'x-test-user': 'fuzzer' },
    ...(c.body !== undefined && { body: c.body }),
    signal: AbortSignal.timeout(5_000),
  });
  const type = response.headers.get('content-type') ?? '';
  if (type.startsWith('text/event-stream')) {
    await response.body?.cancel();
    return { status: response.status, body: undefined, stream: true };
  }
  const text = await response.text();
  expect(text).not.toMatch(LEAK);
  expect(response.status, text).toBeLessThan(500);
  return {
    status: response.status,
    body: text ? (JSON.parse(text) as Record<string, unknown>) : undefined,
    stream: false,
  };
}

export function defineDialectBadInputCases(harness: AdapterHarness): void {
  for (const [mountPath, bodyParser] of [
    ['', false],
    ['/a2a', true],
  ] as const) {
    describe(`dialects: generated bad input, mount '${mountPath || '/'}', body parser ${bodyParser ? 'on' : 'off'}`, () => {
      let server: StartedServer | undefined;
      let base = '';
      beforeAll(async () => {
        const a2a = createA2AHandler({
          agentCard: goldenCard,
          executor: goldenExecutor,
          onError: (error) => {
            throw error; // an internal error is a failure of this suite
          },
          dialects: ['sessions', 'paraphrase'],
        });
        server = await harness.start(a2a, {
          mountPath,
          bodyParser,
          compression: false,
          contextFromHeader: true,
          trustProxy: true,
        });
        base = `${server.baseUrl}${mountPath}`;
      });
      afterAll(() => server?.close());

      const session = async () => {
        const created = await fetch(`${base}/sessions`, {
          method: 'POST',
          headers: { 'x-test-user': 'fuzzer' },
        });
        return ((await created.json()) as { session: { id: string } }).session.id;
      };

      it('sessions: {error: {code, message, details}} with a 4xx', async () => {
        const id = await session();
        await fc.assert(
          fc.asyncProperty(sessionCases, async (c) => {
            const { status, body, stream } = await answer(base, c, id);
            if (stream || status < 400) return;
            const error = body?.error as Record<string, unknown> | undefined;
            expect(error, JSON.stringify(body)).toMatchObject({
              code: expect.any(String),
              message: expect.any(String),
            });
            expect(typeof error?.details).toBe('object');
          }),
          { seed: SEED, numRuns: NUM_RUNS },
        );
      }, 60_000);

      it('paraphrase REST: {code, message, details} with a 4xx', async () => {
        await fc.assert(
          fc.asyncProperty(paraphraseCases, async (c) => {
            const { status, body, stream } = await answer(base, c, '');
            if (stream || status < 400) return;
            expect(body, JSON.stringify(body)).toMatchObject({
              code: expect.any(Number),
              message: expect.any(String),
              details: expect.any(Array),
            });
          }),
          { seed: SEED, numRuns: NUM_RUNS },
        );
      }, 60_000);

      it('paraphrase JSON-RPC: a JSON-RPC error or result, never a 5xx', async () => {
        await fc.assert(
          fc.asyncProperty(rpcCases, async (c) => {
            const { body, stream } = await answer(base, c, '');
            if (stream) return;
            expect(body?.jsonrpc, JSON.stringify(body)).toBe('2.0');
            expect('result' in (body ?? {}) || typeof (body?.error as { code?: unknown })?.code === 'number').toBe(
              true,
            );
          }),
          { seed: SEED, numRuns: NUM_RUNS },
        );
      }, 60_000);
    });
  }
}
