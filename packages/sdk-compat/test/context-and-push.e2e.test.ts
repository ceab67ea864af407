import { createServer, type Server } from 'node:http';
import { createA2AHandler, createPushSender } from '@a2a/core';
import { a2aExpress } from '@a2a/express';
import { a2aFastify } from '@a2a/fastify';
import { TaskState } from '@a2a-js/sdk';
import {
  AgentEvent,
  type ExecutionEventBus,
  InMemoryPushNotificationStore,
  type RequestContext,
} from '@a2a-js/sdk/server';
import express from 'express';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fromSdkExecutor, fromSdkPushStore, sdkContext } from '../src/index.js';
import { close, listen } from './helpers.js';

/** An app's own user class, as an SDK `UserBuilder` returns it. */
class StaffUser {
  constructor(readonly userName: string) {}
  get isAuthenticated(): boolean {
    return true;
  }
}

/** Completes with what it saw: the user's class and name, a request header, and the request's configuration. */
class Witness {
  async execute(ctx: RequestContext, bus: ExecutionEventBus): Promise<void> {
    const user = ctx.context.user;
    const headers = ctx.context.state.get('headers') as Record<string, string>;
    const seen = [
      user instanceof StaffUser ? 'StaffUser' : user?.constructor.name,
      user?.userName,
      headers['x-trace-note'],
      ctx.request.configuration?.acceptedOutputModes.join(','),
    ].join('|');
    bus.publish(
      AgentEvent.statusUpdate({
        taskId: ctx.taskId,
        contextId: ctx.contextId,
        status: {
          state: TaskState.TASK_STATE_COMPLETED,
          timestamp: undefined,
          message: {
            messageId: 'w',
            contextId: ctx.contextId,
            taskId: ctx.taskId,
            role: 2,
            parts: [{ content: { $case: 'text', value: seen }, metadata: undefined, filename: '', mediaType: '' }],
            metadata: undefined,
            extensions: [],
            referenceTaskIds: [],
          },
        },
        metadata: undefined,
      }),
    );
  }
  async cancelTask(): Promise<void> {}
}

const card = {
  name: 'Witness',
  description: 'Says what it saw',
  version: '1.0.0',
  capabilities: { streaming: true, pushNotifications: true },
  skills: [{ id: 'w', name: 'w', description: 'w', tags: ['w'] }],
};

const rpc = (method: string, params: unknown, headers: Record<string, string> = {}) => ({
  method: 'POST',
  headers: { 'content-type': 'application/json', 'a2a-version': '1.0', ...headers },
  body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  signal: AbortSignal.timeout(15_000),
});

const message = (text: string) => ({ messageId: crypto.randomUUID(), role: 'ROLE_USER', parts: [{ text }] });

describe('sdkContext and fromSdkPushStore', () => {
  let server: Server;
  let origin: string;
  let webhook: Server;
  let hookUrl: string;
  const delivered: unknown[] = [];
  const fastify = Fastify();
  let fastifyOrigin: string;

  beforeAll(async () => {
    webhook = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk) => (body += chunk));
      req.on('end', () => {
        delivered.push(JSON.parse(body));
        res.end();
      });
    });
    hookUrl = `${await listen(webhook)}/hook`;
    const a2a = createA2AHandler({
      agentCard: card,
      executor: fromSdkExecutor(new Witness()),
      pushConfigStore: fromSdkPushStore(new InMemoryPushNotificationStore()),
      pushNotifications: createPushSender({ ssrf: { allow: ['127.0.0.1'], allowHttp: true } }),
    });
    const staff = async (req: { headers: Record<string, unknown> }) =>
      new StaffUser(String(req.headers['x-staff'] ?? 'nobody'));
    const app = express();
    app.use(a2aExpress(a2a, { context: sdkContext(staff) }));
    server = createServer(app);
    origin = await listen(server);
    await fastify.register(a2aFastify, { handler: a2a, context: sdkContext(staff) });
    await fastify.listen({ port: 0, host: '127.0.0.1' });
    const address = fastify.server.address();
    fastifyOrigin = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  });
  afterAll(async () => {
    await fastify.close();
    await close(server);
    await close(webhook);
  });

  it.each(['express', 'fastify'])(
    '%s: the builder’s user object, the headers and the configuration reach the executor',
    async (which) => {
      const at = which === 'express' ? origin : fastifyOrigin;
      const params = { message: message('hi'), configuration: { acceptedOutputModes: ['text/plain'] } };
      const response = await fetch(at, rpc('SendMessage', params, { 'x-staff': 'ada', 'x-trace-note': 'n1' }));
      const body = (await response.json()) as {
        result: { task: { status: { message: { parts: { text: string }[] } } } };
      };
      expect(body.result.task.status.message.parts[0]?.text).toBe('StaffUser|ada|n1|text/plain');
    },
  );

  it("tasks are scoped to the builder's user", async () => {
    const sent = await (
      await fetch(origin, rpc('SendMessage', { message: message('mine') }, { 'x-staff': 'ada' }))
    ).json();
    const id = (sent as { result: { task: { id: string } } }).result.task.id;
    const asAda = (await (await fetch(origin, rpc('GetTask', { id }, { 'x-staff': 'ada' }))).json()) as {
      result?: unknown;
    };
    const asBob = (await (await fetch(origin, rpc('GetTask', { id }, { 'x-staff': 'bob' }))).json()) as {
      error?: { code: number };
    };
    expect(asAda.result).toBeDefined();
    expect(asBob.error?.code).toBe(-32001);
  });

  it('push configs live in the SDK store: create, get, list, delete, and a notification is delivered', async () => {
    const headers = { 'x-staff': 'ada' };
    const sent = await (
      await fetch(
        origin,
        rpc('SendMessage', { message: message('push'), configuration: { returnImmediately: true } }, headers),
      )
    ).json();
    const taskId = (sent as { result: { task: { id: string } } }).result.task.id;
    const created = (await (
      await fetch(origin, rpc('CreateTaskPushNotificationConfig', { taskId, url: hookUrl, token: 't0k' }, headers))
    ).json()) as { result: { id: string; url: string } };
    expect(created.result.url).toBe(hookUrl);
    const id = created.result.id;
    const got = (await (await fetch(origin, rpc('GetTaskPushNotificationConfig', { taskId, id }, headers))).json()) as {
      result: { token: string };
    };
    expect(got.result.token).toBe('t0k');
    const listed = (await (
      await fetch(origin, rpc('ListTaskPushNotificationConfigs', { taskId }, headers))
    ).json()) as { result: { configs: unknown[] } };
    expect(listed.result.configs).toHaveLength(1);
    await (await fetch(origin, rpc('DeleteTaskPushNotificationConfig', { taskId, id }, headers))).json();
    const after = (await (await fetch(origin, rpc('ListTaskPushNotificationConfigs', { taskId }, headers))).json()) as {
      result: { configs?: unknown[] };
    };
    expect(after.result.configs ?? []).toHaveLength(0);

    // A config given with the message is delivered the task's updates.
    const pushed = await (
      await fetch(
        origin,
        rpc(
          'SendMessage',
          { message: message('deliver'), configuration: { taskPushNotificationConfig: { url: hookUrl } } },
          headers,
        ),
      )
    ).json();
    const pushedId = (pushed as { result: { task: { id: string } } }).result.task.id;
    await expect.poll(() => JSON.stringify(delivered), { timeout: 15_000 }).toContain(pushedId);
  });
});
