import { exportJWK, generateKeyPair } from 'jose';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { type AgentExecutor, createA2AHandler, createPushSender } from '../src/index.js';
import { createNodeHandler } from '../src/node/index.js';
import { card, startServer, type TestServer, userMessage } from './helpers.js';

const quietCard = { ...card, capabilities: { streaming: true } };
const executor: AgentExecutor = { execute: (ctx) => ctx.complete('ok') };
const servers: TestServer[] = [];
afterAll(() => Promise.all(servers.map((s) => s.close())));

describe('mistakes fail at setup, saying what to pass', () => {
  it('an executor passed as a bare function', () => {
    const execute = async () => {};
    expect(() => createA2AHandler({ agentCard: quietCard, executor: execute as unknown as AgentExecutor })).toThrow(
      /got a bare function: pass \{ execute: yourFunction \}/,
    );
  });

  it('a missing executor, agent card or options', () => {
    expect(() => createA2AHandler({ agentCard: quietCard } as never)).toThrow(/missing: executor/);
    expect(() => createA2AHandler({ executor } as never)).toThrow(/missing: agentCard/);
    expect(() => createA2AHandler(undefined as never)).toThrow(/createA2AHandler needs options/);
    expect(() => createA2AHandler({ agentCard: quietCard, executor: { execute: 'x' } } as never)).toThrow(
      /its execute is string/,
    );
  });

  it('a base path that is not a path', () => {
    expect(() => createA2AHandler({ agentCard: quietCard, executor, basePath: 'a2a' })).toThrow(/must be a path/);
  });

  it('createNodeHandler without a handler, or with the options instead of the handler', () => {
    expect(() => createNodeHandler(undefined as never)).toThrow(/createNodeHandler needs the handler.*got undefined/);
    expect(() => createNodeHandler({ agentCard: quietCard, executor } as never)).toThrow(
      /pass createA2AHandler\(options\)/,
    );
  });
});

describe('settings that would do nothing are reported once at setup', () => {
  it('a v0.3 url (and other v0.3 card fields) in the card input', () => {
    const onWarning = vi.fn();
    createA2AHandler({
      agentCard: { ...quietCard, url: 'https://agent.example.com/a2a', preferredTransport: 'JSONRPC' } as never,
      executor,
      onWarning,
    });
    expect(onWarning.mock.calls.map(([m]) => m)).toEqual([
      expect.stringMatching(/^agentCard\.url is a v0\.3 field and is ignored: .*publicUrl/),
      expect.stringMatching(/^agentCard\.preferredTransport is a v0\.3 field/),
    ]);
  });

  it('push advertised without a sender; none with one, none for a plain card', () => {
    const onWarning = vi.fn();
    createA2AHandler({ agentCard: card, executor, onWarning });
    expect(onWarning).toHaveBeenCalledOnce();
    expect(onWarning.mock.calls[0]?.[0]).toMatch(/pushNotifications is true but no pushNotifications sender/);
    onWarning.mockClear();
    createA2AHandler({ agentCard: card, executor, onWarning, pushNotifications: createPushSender() });
    createA2AHandler({ agentCard: quietCard, executor, onWarning });
    expect(onWarning).not.toHaveBeenCalled();
  });

  it('goes to console.warn by default', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    try {
      createA2AHandler({ agentCard: card, executor });
      expect(warn).toHaveBeenCalledOnce();
      expect(warn.mock.calls[0]?.[0]).toMatch(/^\[a2a\] agentCard\.capabilities\.pushNotifications/);
    } finally {
      warn.mockRestore();
    }
  });
});

describe('what a remote client reads when the executor throws', () => {
  it("keeps an Error's message, but not the engine's text for a bug (TypeError)", async () => {
    const errors: unknown[] = [];
    const s = await startServer({
      agentCard: quietCard,
      onError: (e) => errors.push(e),
      executor: {
        execute(ctx) {
          if (ctx.message.parts[0]?.text === 'bug') (undefined as unknown as { x: { y: number } }).x.y;
          throw new Error('quota exceeded');
        },
      },
    });
    servers.push(s);
    const bug = (await s.rpc('SendMessage', { message: userMessage('bug') })).body.result.task;
    expect(bug.status.state).toBe('TASK_STATE_FAILED');
    expect(bug.status.message.parts[0].text).toBe('Agent failed: internal error');
    expect(errors[0]).toBeInstanceOf(TypeError); // the whole error goes to onError
    const meant = (await s.rpc('SendMessage', { message: userMessage('quota') })).body.result.task;
    expect(meant.status.message.parts[0].text).toBe('Agent failed: quota exceeded');
  });
});

describe('basePath on node:http', () => {
  it('serves the JWKS and a custom card path at the root too; no legacy card without legacy versions', async () => {
    const { privateKey, publicKey } = await generateKeyPair('ES256', { extractable: true });
    const publicJwk = await exportJWK(publicKey);
    const s = await startServer({
      agentCard: quietCard,
      executor,
      basePath: '/agents/one/',
      legacyVersions: false,
      routes: { agentCard: '/.well-known/my-card.json' },
      signAgentCard: { keys: [{ kid: 'k1', privateKey, publicJwk }] },
    });
    servers.push(s);
    const jwks = await fetch(`${s.url}/.well-known/jwks.json`);
    expect(jwks.status).toBe(200);
    expect((await jwks.json()).keys[0].kid).toBe('k1');
    const served = await (await fetch(`${s.url}/.well-known/my-card.json`)).json();
    expect(served.supportedInterfaces.map((i: { url: string }) => i.url)).toEqual([
      `${s.url}/agents/one/`,
      `${s.url}/agents/one`,
    ]);
    expect(served.signatures[0].protected).toBeTruthy();
    expect((await fetch(`${s.url}/.well-known/agent-card.json`)).status).toBe(404);
    expect((await fetch(`${s.url}/.well-known/agent.json`)).status).toBe(404);
    expect((await fetch(`${s.url}/.well-known/my-card.json`, { method: 'POST' })).status).toBe(404);
    const sent = await fetch(`${s.url}/agents/one/message:send`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ message: userMessage('hi') }),
    });
    expect(sent.status).toBe(200);
  });

  it('a publicUrl still names the public base in the root card', async () => {
    const s = await startServer({
      agentCard: quietCard,
      executor,
      basePath: '/a2a',
      publicUrl: 'https://agents.example.com/a2a',
    });
    servers.push(s);
    const served = await (await fetch(`${s.url}/.well-known/agent-card.json`)).json();
    expect(served.supportedInterfaces[0].url).toBe('https://agents.example.com/a2a/');
  });
});

describe('a2a.fetch and a2a.handle given something other than a Fetch Request', () => {
  // `app.use(a2a.fetch)`: the framework calls it with its own request; thrown at once (not a rejection, which Express 4
  // would leave unhandled), naming the adapter to mount instead.
  it.each([
    ['fetch', { httpVersion: '1.1', url: '/', headers: { host: 'x' } }, "Node's request"],
    ['handle', { req: {}, res: {}, headers: {} }, "a framework's context \\(Koa's or Hono's\\)"],
    ['fetch', undefined, 'undefined'],
    ['fetch', '/path', '/path'],
  ] as const)('%s(%j) throws naming the fix', (method, given, named) => {
    const a2a = createA2AHandler({ agentCard: quietCard, executor });
    expect(() => a2a[method](given as never)).toThrow(
      new RegExp(
        `^a2a\\.${method}\\(\\) takes a Fetch Request and was given ${named} .*app\\.use\\(a2aExpress\\(a2a\\)\\)`,
      ),
    );
  });
});
