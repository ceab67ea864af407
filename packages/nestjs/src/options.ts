// @a2a/nestjs: the module's options (the handler's, or a handler; the `context` hook; `trustProxy`; the routes' path
// and guards) and the default caller, `callerFromUser`. No translation here; serve.ts does it. Tests:
// packages/nestjs/test/module.test.ts and context-types.test-d.ts; `npx vitest run packages/nestjs`.
import type { A2AHandlerOptions, A2ARequestContext, MountableHandler } from '@a2a/core';
import type { CanActivate, InjectionToken, ModuleMetadata, OptionalFactoryDependency, Type } from '@nestjs/common';

/** The request your guards saw: Express's `Request` or Fastify's `FastifyRequest`, with `user` set by a guard. */
export interface A2ANestRequest {
  user?: unknown;
  headers: Record<string, string | string[] | undefined>;
}

/** `createA2AHandler`'s options, less its Fetch-host `context` (the module's own `context` replaces it). */
type HandlerOptions = A2AHandlerOptions extends infer T ? (T extends unknown ? Omit<T, 'context'> : never) : never;

/** What `forRoot` takes and `forRootAsync`'s `useFactory` returns: the handler's options, or a handler. */
export type A2AModuleOptions<Req extends A2ANestRequest = A2ANestRequest> = (
  | HandlerOptions
  | { handler: MountableHandler }
) & {
  /** The A2A caller from the request your guards authenticated. Default: `request.user` (see `callerFromUser`). */
  context?: (request: Req) => A2ARequestContext | undefined | Promise<A2ARequestContext | undefined>;
  /** Honour X-Forwarded-Proto/Host in the public URL (agent-card URLs behind a proxy). Default false. */
  trustProxy?: boolean;
};

/** Decided when the module is declared (routes are registered before any factory runs). */
export interface A2AModuleRoutes {
  /** Where the routes are: '' (default; the handler's `basePath` or the root) or a prefix such as '/a2a'. */
  path?: string;
  /** Guards for the A2A routes (e.g. your `AuthGuard('jwt')`); global guards apply too. */
  guards?: (CanActivate | Type<CanActivate>)[];
}

export interface A2AModuleAsyncOptions<Req extends A2ANestRequest = A2ANestRequest>
  extends A2AModuleRoutes,
    Pick<ModuleMetadata, 'imports'> {
  inject?: (InjectionToken | OptionalFactoryDependency)[];
  // biome-ignore lint/suspicious/noExplicitAny: Nest's factories take whatever `inject` lists
  useFactory: (...args: any[]) => A2AModuleOptions<Req> | Promise<A2AModuleOptions<Req>>;
}

/**
 * The default caller: a guard's `request.user` with a string `id` (or `sub`, as JWT payloads have), and its
 * `scopes` (an array, or a space-separated `scope` string). No user: no caller.
 */
export function callerFromUser(user: unknown): A2ARequestContext | undefined {
  if (typeof user !== 'object' || user === null) return undefined;
  const { id, sub, scopes, scope } = user as Record<string, unknown>;
  const userId = typeof id === 'string' || typeof id === 'number' ? String(id) : typeof sub === 'string' ? sub : '';
  if (!userId) return undefined;
  const list = Array.isArray(scopes) ? scopes.map(String) : typeof scope === 'string' ? scope.split(/\s+/) : undefined;
  return { user: { id: userId, ...(list ? { scopes: list.filter(Boolean) } : {}) } };
}
