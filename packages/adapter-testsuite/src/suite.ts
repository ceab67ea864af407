import { ClientFactory } from '@a2a-js/sdk/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineBadInputCases } from './bad-input.js';
import { type Client, client, eventually, read, sse, userMessage, within } from './client.js';
import { defineDialectBadInputCases } from './dialect-bad-input.js';
import { createFixture, FIXTURE_MAX_BODY, type Fixture, SECURED_CARD } from './fixture.js';
import { defineGoldenWireCases } from './golden.js';
import type { AdapterHarness, HarnessStartOptions, StartedServer } from './harness.js';

const USER = { 'x-test-user': 'alice' };
const MOUNTS = ['', '/a2a'];
const BASE_PATH = '/a2a';
const gateName = () => crypto.randomUUID().slice(0, 8);

interface Setup {
  fixture: Fixture;
  server: StartedServer;
  c: Client;
  origin: string;
}

/** Starts a fixture behind the harness for one describe block. */
function useServer(
  harness: AdapterHarness,
  options: Omit<HarnessStartOptions, 'contextFromHeader' | 'trustProxy'>,
  make = () => createFixture(),
) {
  const setup = {} as Setup;
  beforeAll(async () => {
    setup.fixture = make();
    setup.server = await harness.start(setup.fixture.a2a, { ...options, contextFromHeader: true, trustProxy: true });
    setup.origin = setup.server.baseUrl.replace(/\/$/, '');
    setup.c = client(`${setup.origin}${options.mountPath}`);
  });
  afterAll(() => setup.server?.close());
  return setup;
}

const expectStatusBody = (body: unknown, code: number, reason?: string) => {
  expect(body).toMatchObject({ error: { code } });
  if (reason)
    expect((body as { error: { details: unknown[] } }).error.details).toContainEqual(
      expect.objectContaining({ reason }),
    );
};

/**
 * The adapter conformance suite: every case runs for each mount prefix ('' and '/a2a') with the framework's body
 * parser off and on, plus streaming with compression on (skipped, with its reason, for a harness that declares
 * `noCompression`), plus security enforcement. No other opt-outs.
 */
export function defineAdapterConformanceSuite(harness: AdapterHarness): void {
  describe(`A2A adapter conformance: ${harness.name}`, () => {
    for (const mountPath of MOUNTS) {
      for (const bodyParser of [false, true]) {
        describe(`mount '${mountPath || '/'}', body parser ${bodyParser ? 'on' : 'off'}`, () => {
          const s = useServer(harness, { mountPath, bodyParser, compression: false });
          defineCases(s, mountPath);
        });
      }
      if (harness.noCompression === undefined) {
        describe(`mount '${mountPath || '/'}', compression on, body parser on`, () => {
          const s = useServer(harness, { mountPath, bodyParser: true, compression: true });
          defineCompressionCases(s);
        });
      } else {
        // Uncompressed, these cases would pass without testing anything: skipped, and the report says why.
        describe.skip(`mount '${mountPath || '/'}', compression on: skipped (${harness.noCompression})`, () => {
          defineCompressionCases({} as Setup);
        });
      }
      describe(`mount '${mountPath || '/'}', security schemes declared`, () => {
        const s = useServer(harness, { mountPath, bodyParser: true, compression: false }, () =>
          createFixture(SECURED_CARD),
        );
        defineSecurityCases(s, mountPath);
      });
    }
    describe(`handler basePath '${BASE_PATH}', adapter mounted at the root`, () => {
      const s = useServer(harness, { mountPath: '', bodyParser: true, compression: false }, () =>
        createFixture(undefined, { basePath: BASE_PATH }),
      );
      defineBasePathCases(s);
    });
    defineGoldenWireCases(harness);
    defineBadInputCases(harness);
    defineDialectBadInputCases(harness);
  });
}

function defineCases(s: Setup, mountPath: string): void {
  describe('JSON-RPC', () => {
    it('serves every operation', async () => {
      const sent = await s.c.rpc('SendMessage', { message: userMessage('hello') }, USER);
      expect(sent.status).toBe(200);
      expect(sent.headers.get('content-type')).toMatch(/^application\/json/);
      const task = sent.body.result.task;
      expect(task.status.state).toBe('TASK_STATE_COMPLETED');
      expect(task.artifacts[0].parts[0].text).toBe('hello');
      const reply = await s.c.rpc('SendMessage', { message: userMessage('reply hi') }, USER);
      expect(reply.body.result.message.parts[0].text).toBe('you said hi');
      expect((await s.c.rpc('GetTask', { id: task.id, historyLength: 1 }, USER)).body.result.history).toHaveLength(1);
      const listed = await s.c.rpc('ListTasks', { contextId: task.contextId }, USER);
      expect(listed.body.result.tasks.map((t: { id: string }) => t.id)).toEqual([task.id]);
      const cfg = { taskId: task.id, id: 'c1', url: 'https://example.com/hook' };
      expect((await s.c.rpc('CreateTaskPushNotificationConfig', cfg, USER)).body.result).toMatchObject(cfg);
      expect(
        (await s.c.rpc('GetTaskPushNotificationConfig', { taskId: task.id, id: 'c1' }, USER)).body.result.url,
      ).toBe(cfg.url);
      expect(
        (await s.c.rpc('ListTaskPushNotificationConfigs', { taskId: task.id }, USER)).body.result.configs,
      ).toHaveLength(1);
      expect(
        (await s.c.rpc('DeleteTaskPushNotificationConfig', { taskId: task.id, id: 'c1' }, USER)).body.result,
      ).toBeDefined();
      const ext = await s.c.rpc('GetExtendedAgentCard', {}, USER); // not declared by the fixture's card
      expect(ext.body.error.code).toBeLessThan(-32000);
    });

    it('runs a multi-turn task and cancels a running one', async () => {
      const first = (await s.c.rpc('SendMessage', { message: userMessage('ask') }, USER)).body.result.task;
      expect(first.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
      const second = await s.c.rpc(
        'SendMessage',
        { message: userMessage('Bob', { taskId: first.id, contextId: first.contextId }) },
        USER,
      );
      expect(second.body.result.task.status.state).toBe('TASK_STATE_COMPLETED');
      const running = (
        await s.c.rpc(
          'SendMessage',
          { message: userMessage('forever'), configuration: { returnImmediately: true } },
          USER,
        )
      ).body.result.task;
      const canceled = await s.c.rpc('CancelTask', { id: running.id }, USER);
      expect(canceled.body.result.status.state).toBe('TASK_STATE_CANCELED');
      await eventually(() => s.fixture.canceled.has(running.id));
    });

    it('answers protocol errors with the JSON-RPC codes', async () => {
      const broken = await read(await s.c.rpcRaw('{"jsonrpc":"2.0","id":1,'));
      expect(broken.status).toBe(200);
      expect(broken.body.error.code).toBe(-32700);
      expect((await read(await s.c.rpcRaw('{"id":1,"method":"GetTask"}'))).body.error.code).toBe(-32600);
      expect((await read(await s.c.rpcRaw('[]'))).body.error.code).toBe(-32600);
      expect((await s.c.rpc('NoSuchMethod', {})).body.error.code).toBe(-32601);
      const invalid = await s.c.rpc('SendMessage', { message: { role: 'ROLE_USER' } });
      expect(invalid.body.error.code).toBe(-32602);
      const missing = await s.c.rpc('GetTask', { id: 'no-such-task' });
      expect(missing.body).toMatchObject({ jsonrpc: '2.0', error: { code: -32001 } });
    });

    it('scopes tasks to the caller from the context hook', async () => {
      const task = (await s.c.rpc('SendMessage', { message: userMessage('mine') }, USER)).body.result.task;
      expect((await s.c.rpc('GetTask', { id: task.id }, USER)).body.result.id).toBe(task.id);
      expect((await s.c.rpc('GetTask', { id: task.id }, { 'x-test-user': 'mallory' })).body.error.code).toBe(-32001);
      expect((await s.c.rpc('GetTask', { id: task.id })).body.error.code).toBe(-32001);
      const other = await s.c.rpc('ListTasks', {}, { 'x-test-user': 'mallory' });
      expect(other.body.result.tasks.map((t: { id: string }) => t.id)).not.toContain(task.id);
    });
  });

  describe('HTTP+JSON', () => {
    it('serves every operation', async () => {
      const sent = await s.c.rest('POST', '/message:send', { message: userMessage('rest') }, USER);
      expect(sent.status).toBe(200);
      expect(sent.headers.get('content-type')).toMatch(/^application\/(a2a\+)?json/);
      const task = sent.body.task;
      expect(task.status.state).toBe('TASK_STATE_COMPLETED');
      expect((await s.c.rest('GET', `/tasks/${task.id}?historyLength=1`, undefined, USER)).body.history).toHaveLength(
        1,
      );
      expect((await s.c.rest('GET', `/tasks?contextId=${task.contextId}`, undefined, USER)).body.tasks).toHaveLength(1);
      const cfg = await s.c.rest(
        'POST',
        `/tasks/${task.id}/pushNotificationConfigs`,
        { id: 'c1', url: 'https://example.com/h' },
        USER,
      );
      expect(cfg.body).toMatchObject({ id: 'c1', taskId: task.id });
      expect((await s.c.rest('GET', `/tasks/${task.id}/pushNotificationConfigs/c1`, undefined, USER)).body.url).toBe(
        'https://example.com/h',
      );
      expect(
        (await s.c.rest('GET', `/tasks/${task.id}/pushNotificationConfigs`, undefined, USER)).body.configs,
      ).toHaveLength(1);
      expect((await s.c.rest('DELETE', `/tasks/${task.id}/pushNotificationConfigs/c1`, undefined, USER)).status).toBe(
        200,
      );
      const running = (
        await s.c.rest(
          'POST',
          '/message:send',
          { message: userMessage('forever'), configuration: { returnImmediately: true } },
          USER,
        )
      ).body.task;
      const canceled = await read(
        await fetch(`${s.c.base}/tasks/${running.id}:cancel`, { method: 'POST', headers: USER }),
      );
      expect(canceled.status).toBe(200);
      expect(canceled.body.status.state).toBe('TASK_STATE_CANCELED');
    });

    it('maps errors to HTTP statuses with a google.rpc.Status body', async () => {
      const missing = await s.c.rest('GET', '/tasks/no-such-task', undefined, USER);
      expect(missing.status).toBe(404);
      expectStatusBody(missing.body, 404, 'TASK_NOT_FOUND');
      const invalid = await s.c.rest('POST', '/message:send', {
        message: { role: 'ROLE_USER', parts: [{ text: 'x' }] },
      });
      expect(invalid.status).toBe(400);
      expectStatusBody(invalid.body, 400);
      const broken = await read(
        await fetch(`${s.c.base}/message:send`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: '{oops',
        }),
      );
      expect(broken.status).toBe(400);
      expectStatusBody(broken.body, 400);
      expect((await s.c.rest('GET', '/tasks?pageSize=100000')).status).toBe(400);
      const notAllowed = await s.c.rest('DELETE', '/message:send');
      expect(notAllowed.status).toBe(405);
      expect(notAllowed.headers.get('allow')).toBe('POST');
      expectStatusBody(notAllowed.body, 405, 'METHOD_NOT_ALLOWED');
    });
  });

  describe('HTTP edges', () => {
    it('leaves unknown paths to the framework', async () => {
      const host = await read(await fetch(`${s.c.base}/host-route`));
      expect(host.status).toBe(200);
      expect(host.text).toBe('host');
      const unknown = await read(await fetch(`${s.c.base}/not-a2a/at/all`));
      expect(unknown.status).toBe(404);
      expect(unknown.body?.error?.details).toBeUndefined(); // the framework's 404, not an A2A error body
      const posted = await read(
        await fetch(`${s.c.base}/not-a2a/at/all`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: '{"a":1}',
        }),
      );
      expect(posted.status).toBe(404);
      expect(posted.body?.error?.details).toBeUndefined();
      if (mountPath) expect((await fetch(`${s.origin}/.well-known/agent-card.json`)).status).toBe(404);
    });

    it('serves the agent card with absolute URLs under the mount prefix and behind a proxy', async () => {
      const direct = await read(await fetch(`${s.c.base}/.well-known/agent-card.json`));
      expect(direct.status).toBe(200);
      expect(direct.headers.get('content-type')).toMatch(/^application\/json/);
      expect(direct.body.name).toBe('Conformance fixture');
      const urls = direct.body.supportedInterfaces.map((i: { url: string }) => i.url);
      expect(urls).toContain(`${s.c.base}/`);
      expect(direct.body.supportedInterfaces.map((i: { protocolBinding: string }) => i.protocolBinding)).toEqual(
        expect.arrayContaining(['JSONRPC', 'HTTP+JSON']),
      );
      const proxied = await read(
        await fetch(`${s.c.base}/.well-known/agent-card.json`, {
          headers: { 'x-forwarded-proto': 'https', 'x-forwarded-host': 'agents.example.com' },
        }),
      );
      // JSON-RPC posts to the mount point itself; REST clients append `/message:send` to a URL without a slash.
      for (const i of proxied.body.supportedInterfaces) {
        const expected = `https://agents.example.com${mountPath}${i.protocolBinding === 'HTTP+JSON' ? '' : '/'}`;
        expect(i.url).toBe(expected);
      }
    });

    it('accepts JSON content types with parameters and refuses others (415)', async () => {
      for (const type of [
        'application/json; charset=utf-8',
        'application/a2a+json',
        'Application/JSON;charset=UTF-8',
      ]) {
        const r = await read(
          await s.c.rpcFetch('SendMessage', { message: userMessage('reply typed') }, { 'content-type': type }),
        );
        expect(r.body.result.message.parts[0].text).toBe('you said typed');
      }
      const rpc = await read(
        await s.c.rpcRaw('{"jsonrpc":"2.0","id":1,"method":"GetTask","params":{"id":"x"}}', {
          'content-type': 'text/plain',
        }),
      );
      expect(rpc.status).toBe(415);
      const rest = await read(
        await fetch(`${s.c.base}/message:send`, {
          method: 'POST',
          headers: { 'content-type': 'text/plain' },
          body: '{}',
        }),
      );
      expect(rest.status).toBe(415);
      expectStatusBody(rest.body, 415);
    });

    it('refuses bodies over the limit (413) with an A2A error body', async () => {
      const big = JSON.stringify({ message: userMessage('x'.repeat(FIXTURE_MAX_BODY * 8)) });
      const rest = await read(
        await fetch(`${s.c.base}/message:send`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: big,
        }),
      );
      expect(rest.status).toBe(413);
      expectStatusBody(rest.body, 413);
      const rpc = await read(
        await s.c.rpcFetch('SendMessage', { message: userMessage('x'.repeat(FIXTURE_MAX_BODY * 8)) }),
      );
      expect(rpc.status).toBe(413);
      expect(rpc.body.error.code).toBe(-32600);
    });

    it('round-trips UTF-8 (multibyte) text', async () => {
      const text = 'héllo wörld ✓ 日本語 🚀👩‍💻';
      const rpc = await s.c.rpc('SendMessage', { message: userMessage(text) }, USER);
      expect(rpc.body.result.task.artifacts[0].parts[0].text).toBe(text);
      const bytes = new TextEncoder().encode(JSON.stringify({ message: userMessage(text) }));
      const rest = await read(
        await fetch(`${s.c.base}/message:send`, {
          method: 'POST',
          headers: { 'content-type': 'application/json; charset=utf-8' },
          body: bytes,
        }),
      );
      expect(rest.body.task.artifacts[0].parts[0].text).toBe(text);
      const stream = sse(await s.c.rpcFetch('SendStreamingMessage', { message: userMessage(text) }, USER));
      const events = await stream.rest();
      expect(events.some((e) => e.data.includes(text))).toBe(true);
    });
  });

  describe('streaming', () => {
    it('delivers each event as it happens with SSE headers, over both bindings', async () => {
      for (const binding of ['jsonrpc', 'rest'] as const) {
        const g = gateName();
        const response =
          binding === 'jsonrpc'
            ? await s.c.rpcFetch('SendStreamingMessage', { message: userMessage(`gated ${g}`) }, USER)
            : await s.c.restFetch('POST', '/message:stream', { message: userMessage(`gated ${g}`) }, USER);
        expect(response.status).toBe(200);
        expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
        expect(response.headers.get('cache-control')).toContain('no-cache');
        const stream = sse(response);
        const unwrap = (data: string) => (binding === 'jsonrpc' ? JSON.parse(data).result : JSON.parse(data));
        const first = unwrap((await within(stream.next(), 3000, 'first event'))?.data ?? 'null');
        expect(first.task ?? first.statusUpdate).toBeDefined();
        // Event 2 exists only after the release: the first one must have arrived on its own.
        const nextEvents: unknown[] = [];
        for (;;) {
          const e = await within(stream.next(), 3000, 'working status');
          const v = unwrap(e?.data ?? 'null');
          nextEvents.push(v);
          if (
            v?.statusUpdate?.status?.state === 'TASK_STATE_WORKING' ||
            v?.task?.status?.state === 'TASK_STATE_WORKING'
          )
            break;
        }
        s.fixture.release(g);
        const artifact = unwrap((await within(stream.next(), 3000, 'artifact after release'))?.data ?? 'null');
        expect(artifact.artifactUpdate.artifact.parts[0].text).toBe('chunk 1');
        s.fixture.release(`${g}-2`);
        const rest = (await stream.rest()).map((e) => unwrap(e.data));
        expect(rest.at(-1).statusUpdate.status.state).toBe('TASK_STATE_COMPLETED');
      }
    });

    it('sends keep-alive comments while idle', async () => {
      const g = gateName();
      const stream = sse(await s.c.restFetch('POST', '/message:stream', { message: userMessage(`gated ${g}`) }, USER));
      await within(stream.next(), 3000, 'first event');
      await within(stream.untilComments(2), 3000, 'keep-alives');
      expect(stream.comments.filter((c) => c.includes('keep-alive')).length).toBeGreaterThanOrEqual(2);
      s.fixture.release(g);
      s.fixture.release(`${g}-2`);
      await stream.rest();
    });

    it('answers an error before the first event as JSON, and a later one as an error event, then closes', async () => {
      const unknownTask = { message: userMessage('hi', { taskId: 'no-such-task' }) };
      const early = await read(await s.c.rpcFetch('SendStreamingMessage', unknownTask, USER));
      expect(early.headers.get('content-type')).toMatch(/^application\/json/);
      expect(early.body.error.code).toBe(-32001);
      const earlyRest = await read(await s.c.restFetch('POST', '/message:stream', unknownTask, USER));
      expect(earlyRest.status).toBe(404);
      expectStatusBody(earlyRest.body, 404, 'TASK_NOT_FOUND');
      // An executor that throws before emitting anything: the task exists already, so it ends FAILED in-stream.
      const failed = (
        await within(
          sse(await s.c.restFetch('POST', '/message:stream', { message: userMessage('boom') }, USER)).rest(),
          3000,
          'boom stream',
        )
      ).map((e) => JSON.parse(e.data));
      expect(failed.at(-1)?.statusUpdate?.status?.state ?? failed.at(-1)?.error).toBeDefined();
      const g = gateName();
      const response = await s.c.restFetch('POST', '/message:stream', { message: userMessage(`midboom ${g}`) }, USER);
      expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
      const stream = sse(response);
      await within(stream.next(), 3000, 'first event');
      s.fixture.release(g);
      const rest = await within(stream.rest(), 3000, 'the stream to close');
      const error = rest.find((e) => e.event === 'error');
      expect(error && JSON.parse(error.data)).toMatchObject({ error: { code: 500 } });
      expect(rest.at(-1)).toBe(error);
    });

    it('releases the stream when the client disconnects; the task goes on and can be resubscribed', async () => {
      const g = gateName();
      const abort = new AbortController();
      const stream = sse(
        await s.c.restFetch('POST', '/message:stream', { message: userMessage(`gated ${g}`) }, USER, abort.signal),
      );
      const first = JSON.parse((await within(stream.next(), 3000, 'first event'))?.data ?? 'null');
      const taskId: string = first.task?.id ?? first.statusUpdate?.taskId;
      expect(s.fixture.openSubscriptions(taskId)).toBeGreaterThan(0);
      abort.abort();
      await eventually(() => s.fixture.openSubscriptions(taskId) === 0, 3000);
      const again = sse(await s.c.restFetch('GET', `/tasks/${taskId}:subscribe`, undefined, USER));
      expect(JSON.parse((await within(again.next(), 3000, 'resubscribed'))?.data ?? 'null').task.id).toBe(taskId);
      s.fixture.release(g);
      s.fixture.release(`${g}-2`);
      const tail = (await within(again.rest(), 3000, 'completion')).map((e) => JSON.parse(e.data));
      expect(tail.at(-1).statusUpdate.status.state).toBe('TASK_STATE_COMPLETED');
      expect((await s.c.rest('GET', `/tasks/${taskId}`, undefined, USER)).body.status.state).toBe(
        'TASK_STATE_COMPLETED',
      );
    });
  });
}

function defineCompressionCases(s: Setup): void {
  it('still delivers SSE events one by one with Accept-Encoding: gzip', async () => {
    const g = gateName();
    const response = await s.c.restFetch(
      'POST',
      '/message:stream',
      { message: userMessage(`gated ${g}`) },
      { ...USER, 'accept-encoding': 'gzip' },
    );
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const stream = sse(response);
    for (let seen = 0; seen < 2; seen++) await within(stream.next(), 3000, `event ${seen + 1} before the release`);
    s.fixture.release(g);
    const artifact = JSON.parse((await within(stream.next(), 3000, 'artifact after release'))?.data ?? 'null');
    expect(artifact.artifactUpdate.artifact.parts[0].text).toBe('chunk 1');
    s.fixture.release(`${g}-2`);
    expect(JSON.parse((await stream.rest()).at(-1)?.data ?? 'null').statusUpdate.status.state).toBe(
      'TASK_STATE_COMPLETED',
    );
  });

  it('serves (possibly compressed) JSON answers intact', async () => {
    const text = 'ü'.repeat(4000);
    const r = await read(
      await s.c.rpcFetch('SendMessage', { message: userMessage(text) }, { ...USER, 'accept-encoding': 'gzip' }),
    );
    expect(r.body.result.task.artifacts[0].parts[0].text).toBe(text);
    const card = await read(
      await fetch(`${s.c.base}/.well-known/agent-card.json`, { headers: { 'accept-encoding': 'gzip' } }),
    );
    expect(card.body.name).toBe('Conformance fixture');
  });
}

function defineSecurityCases(s: Setup, mountPath: string): void {
  it('keeps the card public and declares the scheme', async () => {
    const card = await read(await fetch(`${s.c.base}/.well-known/agent-card.json`));
    expect(card.status).toBe(200);
    expect(card.body.securitySchemes.bearer.httpAuthSecurityScheme.scheme).toBe('Bearer');
    expect(card.body.supportedInterfaces.map((i: { url: string }) => i.url)).toContain(`${s.origin}${mountPath}/`);
  });

  it('answers 401 with WWW-Authenticate without a caller, and serves an authenticated one', async () => {
    const rest = await s.c.rest('GET', '/tasks');
    expect(rest.status).toBe(401);
    expect(rest.headers.get('www-authenticate')).toMatch(/^Bearer/);
    expectStatusBody(rest.body, 401);
    const rpc = await s.c.rpc('ListTasks', {});
    expect(rpc.status).toBe(401);
    expect(rpc.headers.get('www-authenticate')).toMatch(/^Bearer/);
    expect(rpc.body.error).toBeDefined();
    const stream = await read(await s.c.restFetch('POST', '/message:stream', { message: userMessage('hi') }));
    expect(stream.status).toBe(401);
    const ok = await s.c.rest('POST', '/message:send', { message: userMessage('hi') }, USER);
    expect(ok.status).toBe(200);
    expect(ok.body.task.status.state).toBe('TASK_STATE_COMPLETED');
  });

  it('answers 403 to a caller whose scopes miss the required one, 200 to one that has it', async () => {
    const weak = { 'x-test-user': 'mallory; agent:read' };
    const rest = await s.c.rest('POST', '/message:send', { message: userMessage('hi') }, weak);
    expect(rest.status).toBe(403);
    expectStatusBody(rest.body, 403);
    expect(rest.headers.get('www-authenticate')).toBeNull();
    const rpc = await s.c.rpc('SendMessage', { message: userMessage('hi') }, weak);
    expect(rpc.status).toBe(403);
    expect(rpc.body.error).toBeDefined();
    const ok = await s.c.rpc(
      'SendMessage',
      { message: userMessage('hi') },
      { 'x-test-user': 'bob; agent:read agent:use' },
    );
    expect(ok.status).toBe(200);
    expect(ok.body.result.task.status.state).toBe('TASK_STATE_COMPLETED');
  });
}

/**
 * The documented mount: the handler knows its base path and the adapter sits at the root, so the well-known
 * documents are where clients look (the origin's `/.well-known/`, RFC 8615) and the endpoints under the base path.
 */
function defineBasePathCases(s: Setup): void {
  const base = () => `${s.origin}${BASE_PATH}`;

  it('serves the agent card at the origin root, its interface URLs under the base path', async () => {
    for (const path of [
      '/.well-known/agent-card.json',
      '/.well-known/agent.json',
      `${BASE_PATH}/.well-known/agent-card.json`,
    ]) {
      const card = await read(await fetch(`${s.origin}${path}`));
      expect(card.status, path).toBe(200);
      expect(card.body.name).toBe('Conformance fixture');
      const urls = card.body.supportedInterfaces.map((i: { url: string }) => i.url);
      expect(urls).toContain(`${base()}/`);
      expect(urls).toContain(base());
    }
    const head = await fetch(`${s.origin}/.well-known/agent-card.json`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    const proxied = await read(
      await fetch(`${s.origin}/.well-known/agent-card.json`, {
        headers: { 'x-forwarded-proto': 'https', 'x-forwarded-host': 'agents.example.com' },
      }),
    );
    expect(proxied.body.supportedInterfaces[0].url).toBe(`https://agents.example.com${BASE_PATH}/`);
  });

  it('answers JSON-RPC at the base path with and without the trailing slash, and REST under it', async () => {
    for (const url of [base(), `${base()}/`]) {
      const r = await read(
        await fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...USER },
          body: JSON.stringify({
            jsonrpc: '2.0',
            id: 1,
            method: 'SendMessage',
            params: { message: userMessage('hi') },
          }),
        }),
      );
      expect(r.status, url).toBe(200);
      expect(r.body.result.task.status.state).toBe('TASK_STATE_COMPLETED');
    }
    const rest = await client(base()).rest('POST', '/message:send', { message: userMessage('hi') }, USER);
    expect(rest.status).toBe(200);
    expect(rest.body.task.status.state).toBe('TASK_STATE_COMPLETED');
  });

  it('leaves every other path to the app, the root included', async () => {
    const host = await read(await fetch(`${s.origin}/host-route`));
    expect(host.text).toBe('host');
    const rpcAtRoot = await read(
      await fetch(`${s.origin}/`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'GetTask', params: { id: 'x' } }),
      }),
    );
    for (const r of [
      rpcAtRoot,
      await read(await fetch(`${s.origin}${BASE_PATH}bc/message:send`, { method: 'POST' })),
      await read(await fetch(`${s.origin}/.well-known/jwks.json`)), // no signing keys: nothing to serve
      await read(await fetch(`${s.origin}/.well-known/security.txt`)),
      await read(await fetch(`${s.origin}/tasks`)),
    ]) {
      expect(r.status).toBe(404);
      expect(r.body?.error?.code ?? r.body?.error?.details).toBeUndefined(); // the framework's 404
    }
  });

  it('lets the official client (@a2a-js/sdk) find the card from the origin and send a message', async () => {
    const agent = await new ClientFactory().createFromUrl(s.origin);
    const result = await agent.sendMessage({
      message: { messageId: crypto.randomUUID(), role: 1, parts: [{ content: { $case: 'text', value: 'hi sdk' } }] },
    } as unknown as Parameters<typeof agent.sendMessage>[0]);
    const task = result as { id?: string; status?: { state?: unknown } };
    expect(task.id).toBeTruthy();
    const got = await agent.getTask({ id: task.id } as Parameters<typeof agent.getTask>[0]);
    expect(got.id).toBe(task.id);
    expect(got.artifacts[0]?.parts[0]?.content).toEqual({ $case: 'text', value: 'hi sdk' });
  });
}
