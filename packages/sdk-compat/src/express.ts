// Look-alikes of `@a2a-js/sdk/server/express` (1.x): the same options, our engine behind them. Each returns what
// `app.use(path, …)` takes where the SDK's was mounted (the bindings: a middleware and its body-parser error handler).
import type { MountableHandler } from '@a2a/core';
import type * as sdk from '@a2a-js/sdk';
import { UnauthenticatedUser } from '@a2a-js/sdk/server';
import type express from 'express';
import type { RequestHandler } from 'express';
import { type CompatMiddleware, cardRouter, isJsonRpcCall, mountedRouter } from './express-mount.js';
import { fromSdkCard } from './sdk-codec.js';
import type { SdkUserBuilder } from './sdk-context.js';

/**
 * As the SDK's (`@a2a-js/sdk/server/express`): `UserBuilder.noAuthentication` answers the SDK's own
 * `UnauthenticatedUser`. Defined here rather than re-exported, so this entry's CommonJS declarations only import the
 * SDK's types (its declarations are ES modules only).
 */
export const UserBuilder: { noAuthentication: () => Promise<UnauthenticatedUser> } = {
  noAuthentication: async () => new UnauthenticatedUser(),
};

export interface CompatHandlerOptions {
  /** The look-alike `DefaultRequestHandler` (or any handler of ours, e.g. `createA2AHandler`'s). */
  requestHandler: MountableHandler;
  /** The caller from the Express request; default `UserBuilder.noAuthentication`. */
  userBuilder?: SdkUserBuilder<express.Request> | undefined;
  /** Accepted for the SDK's sake: the older wires are always served (`legacyVersions` of `createA2AHandler`). */
  legacyCompat?: { enabled: boolean } | undefined;
}

/** The JSON-RPC binding where it is mounted (`app.use('/a2a/jsonrpc', jsonRpcHandler({ … }))`). */
export function jsonRpcHandler(options: CompatHandlerOptions): CompatMiddleware {
  return mountedRouter(options.requestHandler, options.userBuilder ?? UserBuilder.noAuthentication, isJsonRpcCall);
}

/** The HTTP+JSON binding where it is mounted (`app.use('/a2a/rest', restHandler({ … }))`). */
export function restHandler(options: CompatHandlerOptions): CompatMiddleware {
  return mountedRouter(
    options.requestHandler,
    options.userBuilder ?? UserBuilder.noAuthentication,
    (req) => !isJsonRpcCall(req),
  );
}

export type AgentCardProvider = { getAgentCard(): Promise<sdk.AgentCard> } | (() => Promise<sdk.AgentCard>);

export interface AgentCardHandlerOptions {
  /** The look-alike `DefaultRequestHandler` or another handler of ours (its card route is served), or any SDK card provider. */
  agentCardProvider: MountableHandler | AgentCardProvider;
  cache?: { maxAge?: number } | undefined;
  legacyCompat?: { enabled: boolean } | undefined;
}

/** The agent card where it is mounted (`app.use('/.well-known/agent-card.json', agentCardHandler({ … }))`). */
export function agentCardHandler(options: AgentCardHandlerOptions): RequestHandler {
  const provider = options.agentCardProvider;
  if ('handle' in provider) return cardRouter(provider);
  return async (req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    try {
      const card = typeof provider === 'function' ? await provider() : await provider.getAgentCard();
      res.set('cache-control', `public, max-age=${options.cache?.maxAge ?? 300}`).json(fromSdkCard(card));
    } catch (error) {
      next(error);
    }
  };
}
