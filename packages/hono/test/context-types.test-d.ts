// Type-level tests, checked by `tsc` in `pnpm typecheck` (this package's tsconfig includes test/).
import type { A2AHttpHandler } from '@a2a/core';
import { type Context, Hono } from 'hono';
import { expectTypeOf } from 'vitest';
import { a2aHono, a2aMiddleware } from '../src/index.js';

declare const a2a: A2AHttpHandler;

// An app typed with its variables (what an auth middleware sets), Hono's way: the Env as the type argument (or on the
// hook's `c`); the hook sees them through c.get() and c.var, and the sub-app goes to app.route() without casts.
type AppEnv = { Variables: { user: { id: string; tenant: string } } };
const app = new Hono<AppEnv>();
app.route(
  '/a2a',
  a2aHono<AppEnv>(a2a, {
    context: (c) => {
      expectTypeOf(c).toEqualTypeOf<Context<AppEnv>>();
      return { user: { id: c.get('user').id }, tenant: c.var.user.tenant };
    },
  }),
);
app.use('/agents/*', a2aMiddleware(a2a, { context: async (c: Context<AppEnv>) => ({ user: { id: c.var.user.id } }) }));

// Variables declared for every app (Hono's ContextVariableMap, as hono/jwt does for jwtPayload): seen unannotated.
declare module 'hono' {
  interface ContextVariableMap {
    session: { userId: string };
  }
}
new Hono().route('/', a2aHono(a2a, { context: (c) => ({ user: { id: c.var.session.userId } }) }));

// @ts-expect-error a handler is required
a2aHono(undefined);
