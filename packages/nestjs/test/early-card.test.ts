// The card answered from the module's middleware, before the router, only when nothing of Nest's route pipeline
// applies (src/early-card.ts); with a guard or an interceptor it goes through them on the controller, as before.
import { client, userMessage } from '@a2a/adapter-testsuite';
import { createA2AHandler } from '@a2a/core';
import type { CallHandler, CanActivate, DynamicModule, ExecutionContext, NestInterceptor } from '@nestjs/common';
import { APP_GUARD, APP_INTERCEPTOR } from '@nestjs/core';
import { afterEach, describe, expect, it } from 'vitest';
import { A2AModule } from '../src/index.js';
import { startNest } from './harness.js';

const CARD = '/.well-known/agent-card.json';
const handler = () =>
  createA2AHandler({
    agentCard: {
      name: 'A',
      description: 'd',
      version: '1',
      skills: [{ id: 's', name: 's', description: 'd', tags: ['t'] }],
    },
    executor: { execute: (ctx) => ctx.complete('ok') },
  });

/** The module, with app-wide providers beside it (APP_GUARD, APP_INTERCEPTOR). */
const withProviders = (a2a: DynamicModule, providers: DynamicModule['providers'] = []): DynamicModule => {
  class Wrapper {}
  return { module: Wrapper, imports: [a2a], providers };
};

/** Refuses requests sending `x-refuse`. */
const refuse: CanActivate = {
  canActivate: (context: ExecutionContext) => !context.switchToHttp().getRequest().headers['x-refuse'],
};

let stop: (() => Promise<void>) | undefined;
afterEach(async () => {
  await stop?.();
  stop = undefined;
});

async function start(a2a: DynamicModule) {
  const server = await startNest('express', { mountPath: '', bodyParser: true, compression: false }, a2a);
  stop = server.close;
  // Express calls a route parameter's callbacks when a route with it matches: the controller's catch-all `*path`.
  const routed: string[] = [];
  server.app
    .getHttpAdapter()
    .getInstance()
    .param('path', (req: { path: string }, _res: unknown, next: () => void) => {
      routed.push(req.path);
      next();
    });
  return { baseUrl: server.baseUrl, routed };
}

describe('the card on the Express platform', () => {
  it("is answered before the router when no guard, interceptor or hook applies; other requests take the module's route", async () => {
    const { baseUrl, routed } = await start(A2AModule.forRoot({ handler: handler() }));
    const card = await fetch(`${baseUrl}${CARD}`);
    expect(card.status).toBe(200);
    expect((await card.json()).name).toBe('A');
    expect((await fetch(`${baseUrl}${CARD}`, { method: 'HEAD' })).status).toBe(200);
    const sent = await client(baseUrl).rpc('SendMessage', { message: userMessage('hi') });
    expect(sent.body.result.task.status.state).toBe('TASK_STATE_COMPLETED');
    expect(routed).toEqual([]);
    expect((await fetch(`${baseUrl}/tasks/nope`)).status).toBe(404);
    expect(routed).toEqual(['/tasks/nope']);
  });

  it("goes through a global guard, the module's guards and a global interceptor", async () => {
    const guarded = await start(
      withProviders(A2AModule.forRoot({ handler: handler() }), [{ provide: APP_GUARD, useValue: refuse }]),
    );
    expect((await fetch(`${guarded.baseUrl}${CARD}`, { headers: { 'x-refuse': '1' } })).status).toBe(403);
    expect((await fetch(`${guarded.baseUrl}${CARD}`)).status).toBe(200);
    await stop?.();

    const own = await start(A2AModule.forRoot({ handler: handler(), guards: [refuse] }));
    expect((await fetch(`${own.baseUrl}${CARD}`, { headers: { 'x-refuse': '1' } })).status).toBe(403);
    await stop?.();

    const seen: string[] = [];
    const interceptor: NestInterceptor = {
      intercept(context: ExecutionContext, next: CallHandler) {
        seen.push(context.switchToHttp().getRequest().path);
        return next.handle();
      },
    };
    const intercepted = await start(
      withProviders(A2AModule.forRoot({ handler: handler() }), [{ provide: APP_INTERCEPTOR, useValue: interceptor }]),
    );
    expect((await fetch(`${intercepted.baseUrl}${CARD}`)).status).toBe(200);
    expect(seen).toEqual([CARD]);
    expect(intercepted.routed).toEqual([CARD]);
  });
});
