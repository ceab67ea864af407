import type { A2AUser } from '../server/agent-executor.js';

/** What the host (an adapter, or your own code) knows about the caller. */
export interface A2ARequestContext {
  user?: A2AUser | undefined;
  tenant?: string | undefined;
  /**
   * Free-form per-request state for the executor (`ctx.state`), e.g. request headers it needs. A context given to
   * `handle` wins over `createA2AHandler`'s `context` hook field by field (the hook runs only when no user is given).
   */
  state?: Record<string, unknown> | undefined;
}

export interface HandleOptions {
  /**
   * The path relative to where the handler is mounted (default: the URL's path). The rest is the mount prefix.
   * Not used by a handler with a `basePath`: that one routes by the URL's own path.
   */
  pathname?: string;
  context?: A2ARequestContext;
}

/**
 * What the framework adapters mount: anything answering Fetch requests for its own paths. The A2A handler is one;
 * so is `@a2a/webhook-receiver`'s `receiver.handler`.
 */
export interface MountableHandler {
  /** `undefined` when the path is not one of its routes (adapters call `next()`). Never rejects. */
  handle(request: Request, options?: HandleOptions): Promise<Response | undefined>;
  /** Where its routes are, for frameworks that register routes by path (Hapi); absent: wherever it is mounted. */
  readonly mount?: HandlerMount | undefined;
}

/** The paths a handler with a `basePath` answers: everything under `basePath`, and a few GET paths at the root. */
export interface HandlerMount {
  /** e.g. '/a2a' ('' when the handler has none and serves wherever the framework mounts it). */
  readonly basePath: string;
  /** The well-known documents (card, legacy card, JWKS) it also serves at the origin root (GET and HEAD). */
  readonly rootPaths: readonly string[];
}
