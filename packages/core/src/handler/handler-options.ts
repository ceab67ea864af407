import type { CardSigningOptions, CardVariant } from '../card/versioned-card-routes.js';
import type { DialectName } from '../compat/dialects/dialect.js';
import type { V03RestStreamFrames } from '../compat/v03-rest.js';
import type { HealthOptions } from '../http/health.js';
import type { A2ARequestContext } from '../http/mountable-handler.js';
import { unknownOptions } from '../http/unknown-options.js';
import type { A2ARequestHandler } from '../server/request-handler.js';
import type { RequestHandlerOptions } from '../server/request-handler-options.js';

/** The engine from its parts: `agentCard` and `executor` are required. */
export interface A2AEngineOptions extends RequestHandlerOptions {
  requestHandler?: undefined;
}

/** A prepared engine (`createRequestHandler()`); its parts are its own, so they cannot be given here too. */
export type A2APreparedEngineOptions = {
  requestHandler: A2ARequestHandler;
  /** Errors of the HTTP layer that are not the client's fault. Default: the engine's `logger`. */
  onError?: RequestHandlerOptions['onError'];
} & { [K in Exclude<keyof RequestHandlerOptions, 'onError'>]?: undefined };

/** `createA2AHandler` options: either `agentCard` + `executor` (+ engine options), or a prepared `requestHandler`. */
export type A2AHandlerOptions = A2ATransportOptions & (A2AEngineOptions | A2APreparedEngineOptions);

export interface A2ATransportOptions {
  /**
   * Where the A2A endpoints live on the server, e.g. '/a2a': mount the adapter at the root and the handler answers
   * under this path, and also serves the agent card (and the legacy card and JWKS) at the origin's
   * `/.well-known/...` (RFC 8615), where clients look. Other paths are not its routes. The card's interface URLs
   * point under the base path. Default: none, the handler serves wherever the framework mounts it (a prefix mount
   * then has its card only under the prefix).
   */
  basePath?: string;
  /** Paths relative to the mount point (or base path). `false` turns a binding off. */
  routes?: { jsonRpc?: string | false; rest?: string | false; agentCard?: string; jwks?: string };
  /** Public base URL (scheme, host, prefix) for the card; default: derived from each request. */
  publicUrl?: string;
  /**
   * Build the card's URLs from `X-Forwarded-Proto` / `X-Forwarded-Host` when a request has them: for a Fetch host
   * that hands the handler another URL than the client used (Next.js's `next start`: `localhost` and its own port)
   * or one behind a proxy that sets them. Default false: a client could otherwise name any host in the card it gets,
   * and a shared cache keep that card for others. Node adapters have their framework's own setting instead.
   */
  trustProxy?: boolean;
  /** Largest accepted request body. Default 4 MiB. */
  maxBodyBytes?: number;
  /**
   * Deepest accepted JSON nesting of a request body (the body is level 1); deeper bodies are refused (-32602 / 400
   * naming the field) before anything is stored. Default 64.
   */
  maxJsonDepth?: number;
  /** SSE keep-alive comment interval. Default 15 s. */
  keepAliveMs?: number;
  /**
   * How JSON-RPC errors before a stream's first event are answered: 'json' (default: a plain JSON-RPC response) or a
   * one-frame 'event-stream' for clients that only read SSE. REST streams always answer with the HTTP error status;
   * legacy (v0.3/v0.1) JSON-RPC streams always with an SSE frame, as their clients expect.
   */
  earlyStreamErrors?: 'json' | 'event-stream';
  /** `Cache-Control: max-age` of the agent card. Default 300 s. */
  cardMaxAgeSeconds?: number;
  /** Also serve the v0.3/v0.2 and v0.1 JSON-RPC wires (translated at the edge). Default true. */
  legacyVersions?: boolean;
  /**
   * Spec-literal negotiation: a request without `A2A-Version` is read as 0.3. Default false: without the header,
   * JSON-RPC is routed by method name (PascalCase = 1.0, `a/b` = older) and REST is 1.0.
   */
  strictVersionHeader?: boolean;
  /**
   * The card for requests to the v1.0 card path without `A2A-Version`: 'superset' (default; v1.0 card plus the v0.3
   * fields older clients need) or 'v1' (the plain v1.0 card). `/.well-known/agent.json` and 0.x requests always get
   * the superset card; `A2A-Version: 1.0` the plain one.
   */
  headerlessCard?: CardVariant;
  /**
   * v0.3 REST stream frames: 'proto' (default; the v0.3 proto's StreamResponse, `{"task": ...}`, as v0.3 SDK clients
   * parse) or 'json' (bare kind-tagged v0.3 JSON objects, as a2a-js and the v0.3 conformance kit read).
   */
  v03RestStreamFrames?: V03RestStreamFrames;
  /** Sign the served cards (JWS over the JCS form); the public keys are served at `routes.jwks`. */
  signAgentCard?: CardSigningOptions;
  /**
   * A readiness route for load balancers (off by default): `true` serves GET/HEAD `/healthz` (relative to the mount
   * point or base path), 200 `{"status":"ok"}` while the task store answers its `ping()`, 503 while it does not or
   * once the handler is closing.
   */
  health?: boolean | HealthOptions;
  /**
   * Wires that no official A2A version has, described by pages clients are written from, served next to the
   * versions (translated onto the same engine): 'sessions' (`/card`, `/sessions/...`) and 'paraphrase'
   * (`A2A.SendMessage`... JSON-RPC methods, `/messages`, `/tasks/{id}/stream`, ... REST paths). Default: none.
   */
  dialects?: readonly DialectName[];
  /** Caller identity for Fetch-native hosts (adapters pass theirs through `handle`). */
  context?: (request: Request) => A2ARequestContext | undefined | Promise<A2ARequestContext | undefined>;
}

type OptionName = A2AHandlerOptions extends infer T ? (T extends unknown ? keyof T : never) : never;

// Every option createA2AHandler reads (unknown names get a warning): typed, so a new option must be listed here.
export const OPTION_NAMES: Record<OptionName, true> = {
  basePath: true,
  routes: true,
  publicUrl: true,
  trustProxy: true,
  maxBodyBytes: true,
  maxJsonDepth: true,
  keepAliveMs: true,
  earlyStreamErrors: true,
  cardMaxAgeSeconds: true,
  legacyVersions: true,
  strictVersionHeader: true,
  headerlessCard: true,
  v03RestStreamFrames: true,
  signAgentCard: true,
  health: true,
  dialects: true,
  context: true,
  requestHandler: true,
  agentCard: true,
  executor: true,
  taskStore: true,
  pushConfigStore: true,
  extendedAgentCard: true,
  validatePushUrl: true,
  pushNotifications: true,
  logger: true,
  onError: true,
  acceptAnyInputMode: true,
  onWarning: true,
  now: true,
  coordinator: true,
  storeRetryMs: true,
};

export function requireEngineOptions(options: A2AHandlerOptions): RequestHandlerOptions {
  if (!options || typeof options !== 'object') {
    throw new TypeError('createA2AHandler needs options: { agentCard, executor } or { requestHandler }');
  }
  if (!options.agentCard || !options.executor) {
    const missing = [!options.agentCard && 'agentCard', !options.executor && 'executor'].filter(Boolean).join(' and ');
    // A misspelt option (`executer`) is likely why one is missing: say so here, the warning would come too late.
    const typos = unknownOptions(options, OPTION_NAMES)
      .filter((o) => o.near === 'agentCard' || o.near === 'executor')
      .map((o) => `; unknown option '${o.name}': did you mean '${o.near}'?`);
    throw new TypeError(
      `createA2AHandler needs an agentCard and an executor (missing: ${missing}), or a prepared requestHandler` +
        typos.join(''),
    );
  }
  return options as RequestHandlerOptions;
}

/** '' (none) or a path such as '/a2a', without its trailing slash. */
export function checkBasePath(basePath: string | undefined): string {
  if (basePath === undefined || basePath === '' || basePath === '/') return '';
  if (typeof basePath !== 'string' || !/^\/[^?#]*$/.test(basePath)) {
    throw new TypeError(
      `createA2AHandler: basePath must be a path starting with '/', e.g. '/a2a' (got ${String(basePath)})`,
    );
  }
  return basePath.replace(/\/+$/, '');
}
