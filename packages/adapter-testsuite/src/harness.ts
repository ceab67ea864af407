import type { A2AHttpHandler, A2ARequestContext } from '@a2a/core';

/** How the suite asks a harness to start its framework around a core handler. */
export interface HarnessStartOptions {
  /** Mount the adapter here ('' = the root; otherwise e.g. '/a2a'). */
  mountPath: string;
  /**
   * Put the framework's usual JSON body parser in front of the adapter (express.json(), @koa/bodyparser...). Where the
   * adapter owns its routes' parsing (Fastify's encapsulated content-type parsers) or the framework has no global
   * parser (Hono), something the app puts in front that consumes the body: a `preParsing` hook keeping
   * `request.rawBody`, a middleware calling `c.req.text()`.
   */
  bodyParser: boolean;
  /** Put the framework's usual response compression in front of the adapter (compression(), koa-compress...). */
  compression: boolean;
  /**
   * Always true: pass the adapter a `context` hook that reads the `x-test-user` header from the framework's own
   * request object (`req.get()`, `ctx.get()`, `request.headers`) and returns `testCaller(thatHeader)`. The suite
   * checks caller scoping and security enforcement (401, 403) through it.
   */
  contextFromHeader: true;
  /** Always true: let the adapter (or the framework: Express `trust proxy`) honour X-Forwarded-Proto / -Host. */
  trustProxy: true;
}

export interface StartedServer {
  /** The origin the server listens on, e.g. `http://127.0.0.1:54321` (no mount path, no trailing slash). */
  baseUrl: string;
  /** Stop the server and drop open connections. */
  close(): Promise<void>;
}

/**
 * What an adapter provides to run the suite. `start` listens on 127.0.0.1:0 and, besides the adapter, serves one
 * route of the framework's own, registered AFTER the adapter: `GET {mountPath}/host-route` answering 200 with the
 * text `host` — the suite checks that paths the adapter does not own reach it (and other unknown paths get the
 * framework's own 404).
 */
export interface AdapterHarness {
  name: string;
  /**
   * Set when the framework has no response compression to put in front (`node:http`): why, in a few words. The
   * compressed-streaming cases are then skipped, reported with this reason, instead of run uncompressed (where they
   * would pass without testing anything).
   */
  noCompression?: string;
  /**
   * Set when the adapter writes an event stream the agent has finished within its burst as one body with a
   * Content-Length (`writeNodeResponseAfterBurst` on Node hosts); the framing cases then expect that, and chunks
   * otherwise. A stream that goes on is chunked either way.
   */
  streamsInOneWrite?: boolean;
  start(a2a: A2AHttpHandler, options: HarnessStartOptions): Promise<StartedServer>;
}

/**
 * The caller a harness's `context` hook returns for an `x-test-user` header: `alice` → `{ user: { id: 'alice' } }`
 * (authenticated, scopes not checked); `bob; read write` → also `scopes: ['read', 'write']`; absent → no caller.
 */
export function testCaller(header: string | string[] | null | undefined): A2ARequestContext | undefined {
  if (typeof header !== 'string' || header === '') return undefined;
  const [id = '', scopes] = header.split(';');
  return {
    user: { id: id.trim(), ...(scopes === undefined ? {} : { scopes: scopes.trim().split(/\s+/).filter(Boolean) }) },
  };
}
