import type { A2ARequestContext, AgentContext } from '@a2a/core';

/**
 * Where the SDK's user object travels from the `context` hook to the executor: in the request's free-form `state`
 * (always, authenticated or not) and on the A2A caller (authenticated users only; tasks are scoped to its `id`).
 * The object itself is carried, never copied, so `instanceof` and getters keep working in the executor.
 */
export const SDK_USER_KEY = '@a2a-js/sdk:user';

/** The SDK's `User` surface (`@a2a-js/sdk/server`, the same in 0.3.x). */
export interface SdkUser {
  readonly isAuthenticated: boolean;
  readonly userName: string;
  /** Not the SDK's: granted scopes, checked against the card's security requirements when the user has them. */
  readonly scopes?: readonly string[] | undefined;
}

/** The SDK user of a request, if its `context` hook was made by {@link sdkContext}. */
export function sdkUserOf(ctx: Pick<AgentContext, 'state' | 'user'>): SdkUser | undefined {
  return (ctx.state?.[SDK_USER_KEY] ?? ctx.user?.[SDK_USER_KEY]) as SdkUser | undefined;
}

/** The `state` an SDK call context starts with: the hook's state without the user it carries. */
export function sdkState(ctx: Pick<AgentContext, 'state'>): Map<string, unknown> {
  const state = new Map<string, unknown>();
  for (const [key, value] of Object.entries(ctx.state ?? {})) if (key !== SDK_USER_KEY) state.set(key, value);
  return state;
}

/** The caller and state our adapters take, from the user an SDK `UserBuilder` returned and the request headers. */
export function callerOf(user: SdkUser | undefined, headers: Record<string, unknown>): A2ARequestContext {
  return {
    user: user?.isAuthenticated
      ? { id: user.userName, ...(Array.isArray(user.scopes) ? { scopes: user.scopes } : {}), [SDK_USER_KEY]: user }
      : undefined,
    state: { [SDK_USER_KEY]: user, headers },
  };
}
