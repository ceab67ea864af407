// Type-level tests, checked by `tsc` in `pnpm typecheck` (this package's tsconfig includes test/).
import type { A2AHttpHandler } from '@a2a/core';
import Fastify, { type FastifyReply, type FastifyRequest } from 'fastify';
import { expectTypeOf } from 'vitest';
import { a2aFastify, a2aFrameworkErrors } from '../src/index.js';

declare const a2a: A2AHttpHandler;

// What an auth plugin declares on Fastify's request (as @fastify/jwt does) is seen by the hook, unannotated.
declare module 'fastify' {
  interface FastifyRequest {
    session?: { userId: string; tenant?: string };
  }
}

const app = Fastify({ frameworkErrors: a2aFrameworkErrors });
app.register(a2aFastify, {
  handler: a2a,
  prefix: '/a2a',
  context: (request, reply) => {
    expectTypeOf(request).toEqualTypeOf<FastifyRequest>();
    expectTypeOf(reply).toEqualTypeOf<FastifyReply>();
    return request.session ? { user: { id: request.session.userId }, tenant: request.session.tenant } : undefined;
  },
});
// Async hooks, and the agent's options instead of a handler.
app.register(a2aFastify, { handler: a2a, context: async () => ({ user: { id: 'u' } }) });
app.register(a2aFastify, {
  agent: { agentCard: { name: 'a', description: 'd', version: '1', skills: [] }, executor: { execute: () => {} } },
});

// @ts-expect-error the hook returns the A2A caller, not a user object of the app's
app.register(a2aFastify, { handler: a2a, context: () => ({ id: 'u' }) });
