import { client, userMessage } from '@a2a/adapter-testsuite';
import { type AgentCardInput, type AgentExecutor, InMemoryTaskStore } from '@a2a/core';
import { type CanActivate, type ExecutionContext, Module } from '@nestjs/common';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { A2A_HANDLER, A2AModule, callerFromUser } from '../src/index.js';
import { type Platform, startNest } from './harness.js';

const EXECUTOR = 'EXECUTOR';
const card = {
  name: 'Nest agent',
  description: 'Echoes',
  version: '1.0.0',
  capabilities: { streaming: true },
  skills: [{ id: 'echo', name: 'Echo', description: 'Echoes', tags: ['test'] }],
  securitySchemes: { bearer: { httpAuthSecurityScheme: { scheme: 'Bearer' } } },
  securityRequirements: [{ schemes: { bearer: { list: [] } } }],
} as AgentCardInput;
const executor: AgentExecutor = {
  async execute(ctx) {
    await ctx.complete(`echo: ${ctx.message.parts[0]?.text ?? ''}`);
  },
};

/** The app's own providers, injected into the module's factory. */
class AgentModule {}
Module({
  providers: [{ provide: EXECUTOR, useValue: executor }, InMemoryTaskStore],
  exports: [EXECUTOR, InMemoryTaskStore],
})(AgentModule);

/** A guard as an auth package writes one: it sets `request.user` from the token, and refuses `Bearer nobody`. */
class BearerGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<{ headers: Record<string, string>; user?: unknown }>();
    const token = /^Bearer (\w+)$/.exec(request.headers.authorization ?? '')?.[1];
    if (token === 'nobody') return false;
    if (token) request.user = { sub: token, scope: 'agent:use' };
    return true;
  }
}

describe.each(['express', 'fastify'] as Platform[])('A2AModule on %s', (platform) => {
  let server: Awaited<ReturnType<typeof startNest>>;
  let store: InMemoryTaskStore;
  beforeAll(async () => {
    server = await startNest(
      platform,
      { mountPath: '', bodyParser: true, compression: false },
      A2AModule.forRootAsync({
        imports: [AgentModule],
        inject: [EXECUTOR, InMemoryTaskStore],
        useFactory: (injected: AgentExecutor, taskStore: InMemoryTaskStore) => {
          store = taskStore;
          return { agentCard: card, executor: injected, taskStore, basePath: '/a2a' };
        },
        guards: [new BearerGuard()],
      }),
    );
  });
  afterAll(() => server?.close());

  const send = (token?: string) =>
    client(`${server.baseUrl}/a2a`).rpc(
      'SendMessage',
      { message: userMessage('hi') },
      token ? { authorization: `Bearer ${token}` } : {},
    );

  it('builds the handler from injected providers, serves the card at the origin, and provides the handler', async () => {
    const res = await fetch(`${server.baseUrl}/.well-known/agent-card.json`);
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.supportedInterfaces[0].url).toBe(`${server.baseUrl}/a2a/`);
    expect(server.app.get(A2A_HANDLER).mount.basePath).toBe('/a2a');
  });

  it("makes the guard's request.user the A2A caller: 401 without one, tasks scoped to it", async () => {
    const anonymous = await send();
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('www-authenticate')).toMatch(/^Bearer/);
    const alice = await send('alice');
    expect(alice.body.result.task.status.state).toBe('TASK_STATE_COMPLETED');
    expect(store).toBeInstanceOf(InMemoryTaskStore);
    const list = (token: string) =>
      client(`${server.baseUrl}/a2a`).rpc('ListTasks', {}, { authorization: `Bearer ${token}` });
    expect((await list('alice')).body.result.tasks.map((t: { id: string }) => t.id)).toContain(
      alice.body.result.task.id,
    );
    expect((await list('bob')).body.result.tasks).toEqual([]);
  });

  it("keeps Nest's answer when a guard refuses", async () => {
    expect((await send('nobody')).status).toBe(403);
  });
});

describe('A2AModule shutdown', () => {
  it('closes the handler it built when the application closes (new messages: 503), not one it was given', async () => {
    const built = await startNest(
      'express',
      { mountPath: '', bodyParser: true, compression: false },
      A2AModule.forRoot({ agentCard: card, executor }),
    );
    const handler = built.app.get(A2A_HANDLER);
    await built.close();
    const send = new Request('http://127.0.0.1/', {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer x' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'SendMessage', params: { message: userMessage('hi') } }),
    });
    const answer = await handler.handle(send, { context: { user: { id: 'alice' } } });
    expect(answer?.status).toBe(503);
  });
});

describe('callerFromUser', () => {
  it('reads id or sub, and scopes or scope', () => {
    expect(callerFromUser({ id: 7, scopes: ['a'] })).toEqual({ user: { id: '7', scopes: ['a'] } });
    expect(callerFromUser({ sub: 'u', scope: 'a b' })).toEqual({ user: { id: 'u', scopes: ['a', 'b'] } });
    expect(callerFromUser({ name: 'x' })).toBeUndefined();
    expect(callerFromUser(undefined)).toBeUndefined();
  });
});

describe('A2AModule setup errors', () => {
  it('refuses a missing handler and a basePath under a module path when the application starts', async () => {
    await expect(
      startNest(
        'express',
        { mountPath: '', bodyParser: true, compression: false },
        A2AModule.forRoot({ handler: undefined as never }),
      ),
    ).rejects.toThrow(/A2AModule: the option `handler` needs the handler that createA2AHandler.*got undefined/);
    await expect(
      startNest(
        'express',
        { mountPath: '', bodyParser: true, compression: false },
        A2AModule.forRoot({ agentCard: card, executor, basePath: '/a2a', path: '/api' }),
      ),
    ).rejects.toThrow(/A2AModule: the handler has basePath '\/a2a'.*leave out path \('\/api'\)/);
  });
});
