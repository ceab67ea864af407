import type { A2ARequestContext } from '@a2a/core';
import { callerOf, type SdkUser } from './sdk-user.js';

/** The SDK's `UserBuilder`: the caller from the framework's request (`UserBuilder.noAuthentication` by default). */
export type SdkUserBuilder<Req> = (req: Req) => Promise<SdkUser> | SdkUser;

/**
 * The `context` hook for any of our adapters, from an SDK `UserBuilder`: the builder gets the framework's request
 * (Express/Koa/Fastify/Hapi request, Hono's `c`), and the user it returns reaches the SDK executor unchanged
 * (`requestContext.context.user`), with the request headers in `context.state.get('headers')` as in the SDK.
 * An authenticated user also becomes the A2A caller (`{ id: user.userName }`): tasks are scoped to it.
 */
export function sdkContext<Req = unknown>(userBuilder?: SdkUserBuilder<Req>): (req: Req) => Promise<A2ARequestContext> {
  return async (req) => callerOf(userBuilder ? await userBuilder(req) : undefined, headersOf(req));
}

/** The request headers as a plain record, from whichever request object the framework hands the hook. */
export function headersOf(req: unknown): Record<string, unknown> {
  const from = req as { headers?: unknown; req?: { raw?: unknown }; request?: { headers?: unknown } } | null;
  const headers = from?.headers ?? from?.request?.headers ?? (from?.req?.raw as Request | undefined)?.headers;
  if (headers instanceof Headers) return Object.fromEntries(headers);
  return typeof headers === 'object' && headers !== null ? { ...(headers as Record<string, unknown>) } : {};
}
