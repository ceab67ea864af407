// Look-alikes of `@a2a-js/sdk/server/express` 0.3.x: `A2AExpressApp` and the three handlers, our engine behind them.

import type { MountableHandler } from '@a2a/core';
import express, { type ErrorRequestHandler, type Express, type RequestHandler } from 'express';
import { type CompatMiddleware, cardRouter, isJsonRpcCall, mountedRouter } from '../express-mount.js';
import type { SdkUserBuilder } from '../sdk-context.js';
import { UnauthenticatedUser } from './sdk-v03-types.js';

export { UnauthenticatedUser };

export const UserBuilder = {
  noAuthentication: async (): Promise<UnauthenticatedUser> => new UnauthenticatedUser(),
};

export interface CompatHandlerOptions {
  /** The look-alike `DefaultRequestHandler` of `@a2a/sdk-compat/v0.3`. */
  requestHandler: MountableHandler;
  userBuilder?: SdkUserBuilder<express.Request> | undefined;
}

/** The JSON-RPC binding where it is mounted. */
export function jsonRpcHandler(options: CompatHandlerOptions): CompatMiddleware {
  return mountedRouter(options.requestHandler, options.userBuilder ?? UserBuilder.noAuthentication, isJsonRpcCall);
}

/** The HTTP+JSON binding where it is mounted. */
export function restHandler(options: CompatHandlerOptions): CompatMiddleware {
  return mountedRouter(
    options.requestHandler,
    options.userBuilder ?? UserBuilder.noAuthentication,
    (req) => !isJsonRpcCall(req),
  );
}

/** The agent card where it is mounted (`app.use('/.well-known/agent-card.json', agentCardHandler({ … }))`). */
export function agentCardHandler(options: { agentCardProvider: MountableHandler }): RequestHandler {
  return cardRouter(options.agentCardProvider);
}

/** As the 0.3.x SDK's: `new A2AExpressApp(requestHandler).setupRoutes(app, '/a2a')`. */
export class A2AExpressApp {
  constructor(
    private readonly requestHandler: MountableHandler,
    private readonly userBuilder: SdkUserBuilder<express.Request> = UserBuilder.noAuthentication,
  ) {}

  /** JSON-RPC at `baseUrl`, the card at `baseUrl/agentCardPath`; `middlewares` run first (e.g. your auth). */
  setupRoutes(
    app: Express,
    baseUrl = '',
    middlewares?: Array<RequestHandler | ErrorRequestHandler>,
    agentCardPath = '.well-known/agent-card.json',
  ): Express {
    const [serve, parserErrors] = mountedRouter(this.requestHandler, this.userBuilder, isJsonRpcCall);
    const router = express.Router();
    if (middlewares?.length) router.use(middlewares);
    router.use(`/${agentCardPath.replace(/^\//, '')}`, cardRouter(this.requestHandler));
    router.use(serve);
    // Beside the Router, not in it: Express hands an app-level body parser's error only to error middleware.
    app.use(baseUrl, router, parserErrors);
    return app;
  }
}
