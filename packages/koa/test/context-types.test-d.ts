// Type-level tests, checked by `tsc` in `pnpm typecheck` (this package's tsconfig includes test/).
import type { A2AHttpHandler } from '@a2a/core';
import Router from '@koa/router';
import Koa from 'koa';
import { expectTypeOf } from 'vitest';
import { a2aKoa } from '../src/index.js';

declare const a2a: A2AHttpHandler;

// The hook annotated with Koa's own type; the middleware goes to app.use and a router without casts.
const app = new Koa();
app.use(a2aKoa(a2a, { context: (ctx: Koa.Context) => ({ user: { id: ctx.cookies.get('uid') ?? '' } }) }));
const router = new Router();
router.all(['/a2a', '/a2a/{*rest}'], a2aKoa(a2a, { prefix: '/a2a' }));
app.use(router.routes());

// Unannotated: Koa's context, cookies included.
a2aKoa(a2a, {
  context: (ctx) => {
    expectTypeOf(ctx).toEqualTypeOf<Koa.ParameterizedContext>();
    expectTypeOf(ctx.cookies.get).toBeFunction();
    return undefined;
  },
});

// An app typed with its own state and context (e.g. what koa-session adds): the hook sees them.
interface AppState {
  user?: { id: string; roles: string[] };
}
interface AppContext {
  session: { tenant?: string } | null;
}
const typed = new Koa<AppState, AppContext>();
typed.use(
  a2aKoa(a2a, {
    context: (ctx: Koa.ParameterizedContext<AppState, AppContext>) =>
      ctx.state.user ? { user: { id: ctx.state.user.id }, tenant: ctx.session?.tenant } : undefined,
  }),
);

// @ts-expect-error a handler is required
a2aKoa(undefined);
