import { fileURLToPath } from 'node:url';
import { describeOnFetchRuntimes } from '@a2a/adapter-testsuite';
import { describe, expect, it } from 'vitest';
import { createA2AHandler } from '../src/index.js';
import { nodeWebRequest } from '../src/node/index.js';
import { card, sseReader, userMessage } from './helpers.js';

// Bun and Deno read a Response's internal state, not its accessors: the handler must give them plain Responses.
// The binaries come from the npm registry (.ci/run puts them in .ci/.cache); without them these tests are skipped,
// except under CI, where a missing runtime is a failure.
const hostOptions = {
  fixture: fileURLToPath(new URL('./fixtures/fetch-host.ts', import.meta.url)),
  cwd: fileURLToPath(new URL('..', import.meta.url)), // packages/core: its node_modules resolve the imports
};

const rpcBody = (id: number, method: string, params: unknown) => JSON.stringify({ jsonrpc: '2.0', id, method, params });

describe('Fetch-native hosts get plain Responses', () => {
  const a2a = createA2AHandler({ agentCard: card, executor: { execute: (ctx) => ctx.complete('done') } });
  const isPlain = (response: Response | undefined) =>
    response !== undefined && Object.getPrototypeOf(response) === Response.prototype;

  it('a2a.fetch answers a plain Request with plain Responses (card, JSON-RPC, SSE, errors)', async () => {
    const cardResponse = await a2a.fetch(new Request('http://h/.well-known/agent-card.json'));
    expect(isPlain(cardResponse)).toBe(true);
    expect(((await cardResponse.json()) as { name: string }).name).toBe(card.name);

    const post = (body: string, accept = 'application/json') =>
      a2a.fetch(
        new Request('http://h/', {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept, 'a2a-version': '1.0' },
          body,
        }),
      );
    const sent = await post(rpcBody(1, 'SendMessage', { message: userMessage('hi') }));
    expect(isPlain(sent)).toBe(true);
    expect(((await sent.json()) as { result: { task: { status: { state: string } } } }).result.task.status.state).toBe(
      'TASK_STATE_COMPLETED',
    );

    const streamed = await post(
      rpcBody(2, 'SendStreamingMessage', { message: userMessage('hi') }),
      'text/event-stream',
    );
    expect(isPlain(streamed)).toBe(true);
    expect((await sseReader(streamed).all()).length).toBeGreaterThanOrEqual(2);

    const broken = await post('{not json');
    expect(isPlain(broken)).toBe(true);
    expect(((await broken.json()) as { error: { code: number } }).error.code).toBe(-32700);
  });

  it('the Node bridge still gets the lazy responses it writes without a body stream', async () => {
    const { IncomingMessage, ServerResponse } = await import('node:http');
    const { Socket } = await import('node:net');
    const req = new IncomingMessage(new Socket());
    req.method = 'GET';
    req.url = '/.well-known/agent-card.json';
    req.headers = { host: 'h' };
    req.rawHeaders = ['Host', 'h'];
    const response = await a2a.handle(nodeWebRequest(req, new ServerResponse(req)));
    if (!response) throw new Error('the card route did not answer');
    expect(isPlain(response)).toBe(false);
    expect(((await response.json()) as { name: string }).name).toBe(card.name);
  });
});

describeOnFetchRuntimes('served by', hostOptions, (host) => {
  const rpc = (body: string, accept = 'application/json') =>
    fetch(`${host.base}/rpc`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept, 'a2a-version': '1.0' },
      body,
    });

  it('serves the agent card with its body and caching headers', async () => {
    const response = await fetch(`${host.base}/.well-known/agent-card.json`);
    expect(response.status).toBe(200);
    expect(response.headers.get('etag')).toMatch(/^".+"$/);
    const served = (await response.json()) as { name: string; supportedInterfaces: { url: string }[] };
    expect(served.name).toBe('Fetch host agent');
    expect(served.supportedInterfaces[0]?.url).toBe(`${host.base}/rpc`);
  });

  it('answers SendMessage with the completed task, and GetTask over REST finds it', async () => {
    const response = await rpc(rpcBody(1, 'SendMessage', { message: userMessage('hello') }));
    expect(response.status).toBe(200);
    const { result } = (await response.json()) as {
      result: { task: { id: string; status: { state: string }; artifacts: { parts: { text: string }[] }[] } };
    };
    expect(result.task.status.state).toBe('TASK_STATE_COMPLETED');
    expect(result.task.artifacts[0]?.parts[0]?.text).toBe('echo: hello');

    const got = await fetch(`${host.base}/rest/tasks/${result.task.id}`, { headers: { 'a2a-version': '1.0' } });
    expect(got.status).toBe(200);
    expect(((await got.json()) as { id: string }).id).toBe(result.task.id);
  });

  it('streams SendStreamingMessage as SSE events, ending with the completed status', async () => {
    const response = await rpc(
      rpcBody(2, 'SendStreamingMessage', { message: userMessage('stream me') }),
      'text/event-stream',
    );
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    const events = (await sseReader(response).all()).map(
      (e) => (JSON.parse(e.data) as { result: Record<string, { status?: { state: string } }> }).result,
    );
    expect(Object.keys(events[0] ?? {})).toEqual(['task']);
    expect(events.some((e) => e.artifactUpdate)).toBe(true);
    expect(events.at(-1)?.statusUpdate?.status?.state).toBe('TASK_STATE_COMPLETED');
  });

  it('answers bad input with the JSON-RPC error in the body', async () => {
    const response = await rpc('{not json');
    expect(response.status).toBe(200);
    expect(((await response.json()) as { error: { code: number } }).error.code).toBe(-32700);
    const missing = await fetch(`${host.base}/rest/tasks/nope`, { headers: { 'a2a-version': '1.0' } });
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as { error: { status: string } }).error.status).toBe('NOT_FOUND');
  });
});
