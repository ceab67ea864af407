import type { AgentCardInput } from '../card/agent-card-input.js';
import { cardPublisher, joinUrl } from '../card/publish-card.js';
import { type CardSigningOptions, type CardVariant, VersionedCardRoutes } from '../card/versioned-card-routes.js';
import {
  chainJsonRpcRouters,
  checkDialects,
  type Dialect,
  type DialectName,
  type DialectRoute,
  matchDialects,
} from '../compat/dialects/dialect.js';
import { V02_EXTENDED_CARD_PATH } from '../compat/legacy-routes.js';
import { checkServedVersion, createJsonRpcVersionRouter, type VersionPolicy } from '../compat/negotiate.js';
import type { createV03RestServer, matchV03Rest, V03RestStreamFrames } from '../compat/v03-rest.js';
import { A2AError, isA2AError } from '../errors.js';
import { onDemand } from '../on-demand.js';
import type { AgentCard, AgentInterface } from '../schemas/agent-card.js';
import type { A2AUser } from '../server/agent-executor.js';
import { RequestCall } from '../server/call-context.js';
import type { OperationEnv } from '../server/operations.js';
import { A2ARequestHandler } from '../server/request-handler.js';
import type { CloseOptions, RequestHandlerOptions } from '../server/request-handler-options.js';
import { type RequestTelemetry, startRequestTelemetry } from '../telemetry/request-telemetry.js';
import { isJsonContentType } from './body.js';
import { forwardedOrigin } from './forwarded-origin.js';
import { type HealthOptions, healthCheck } from './health.js';
import { DEFAULT_MAX_JSON_DEPTH } from './json-depth.js';
import { peekJsonRpcId, serveJsonRpc } from './json-rpc.js';
import { isPrepared, plainResponse, preparedRefusal, requestDisconnect } from './prepared.js';
import { parseRequestUrl, type RequestUrl } from './request-url.js';
import { type HeaderInit, jsonRpcErrorResponse, restMediaType, statusErrorResponse } from './responses.js';
import { matchRest, serveRest } from './rest.js';
import { authorize, challenges } from './security.js';
import { unknownOptionWarnings } from './unknown-options.js';

/** What the host (an adapter, or your own code) knows about the caller. */
export interface A2ARequestContext {
  user?: A2AUser | undefined;
  tenant?: string | undefined;
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

export interface A2AHttpHandler extends MountableHandler {
  readonly mount: HandlerMount;
  /** Same, with 404 instead of `undefined`, for Fetch-native hosts. */
  fetch(request: Request, options?: HandleOptions): Promise<Response>;
  readonly requestHandler: A2ARequestHandler;
  /** The public card as served for a base URL. */
  agentCard(baseUrl: string): AgentCard;
  /**
   * A card (the public one, or an extended one) completed as this handler serves it: the engine's defaults and the
   * interfaces at `baseUrl` (default: `publicUrl`; with neither, only the added interfaces). For other transports.
   */
  publishCard(card: AgentCardInput, baseUrl?: string): AgentCard;
  /**
   * Lists an interface served beside this handler (e.g. `@a2a/grpc`'s listener) in the served cards, after the
   * HTTP ones; returns the function that removes it again.
   */
  addInterface(agentInterface: AgentInterface): () => void;
  /**
   * Graceful shutdown (call it on SIGTERM, before closing the HTTP server): new messages and subscriptions get
   * `Unavailable` (HTTP 503; JSON-RPC -32603), open SSE streams end so clients resubscribe elsewhere, running
   * executions get `timeoutMs` (default 25 s) to finish, and the rest are aborted with their tasks FAILED and leases
   * released. Closes the request handler (also one passed as `requestHandler`), not the task store.
   */
  close(options?: CloseOptions): Promise<void>;
}

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

const CARD_PATH = '/.well-known/agent-card.json';
const READ_METHODS = new Set(['GET', 'HEAD']);
const LEGACY_CARD_PATH = '/.well-known/agent.json';
type V03RestServer = ReturnType<typeof createV03RestServer>;

// The older wires' REST routes (v0.3 REST, v0.2's extended card) and the dialects are imported at their first request,
// not at start-up (docs/performance.md, "Footprint"): whether a request needs them is told synchronously from its path,
// so v1.0 requests never wait on them. One import per process, shared by every handler.
const v03RestModule = onDemand(() => import('../compat/v03-rest.js'));
const v02CardModule = onDemand(() => import('../compat/v02-extended-card.js'));

type OptionName = A2AHandlerOptions extends infer T ? (T extends unknown ? keyof T : never) : never;

// Every option createA2AHandler reads (unknown names get a warning): typed, so a new option must be listed here.
const OPTION_NAMES: Record<OptionName, true> = {
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

/** The whole A2A server as one Fetch-style handler: JSON-RPC, HTTP+JSON, the agent card and SSE. */
export function createA2AHandler(options: A2AHandlerOptions): A2AHttpHandler {
  const engine = options?.requestHandler ?? new A2ARequestHandler(requireEngineOptions(options));
  for (const warning of unknownOptionWarnings(options, OPTION_NAMES)) engine.log.warn(warning);
  const basePath = checkBasePath(options.basePath);
  const onError = options.onError ?? ((e: unknown) => engine.log.error(e));
  const jsonRpcPath = options.routes?.jsonRpc === undefined ? '/' : options.routes.jsonRpc;
  const trustProxy = options.trustProxy === true;
  const restPath = options.routes?.rest === undefined ? '' : options.routes.rest;
  const cardPath = options.routes?.agentCard ?? CARD_PATH;
  const jwksPath = options.routes?.jwks ?? '/.well-known/jwks.json';
  const healthOptions = options.health === true ? {} : options.health || undefined;
  const healthPath = healthOptions && (healthOptions.path ?? '/healthz');
  const health = healthOptions && healthCheck(engine, healthOptions);
  const settings = {
    maxBodyBytes: options.maxBodyBytes ?? 4 * 1024 * 1024,
    maxJsonDepth: options.maxJsonDepth ?? DEFAULT_MAX_JSON_DEPTH,
    keepAliveMs: options.keepAliveMs ?? 15_000,
    earlyErrors: options.earlyStreamErrors ?? 'json',
    onError,
  } as const;
  const policy: VersionPolicy = {
    legacy: options.legacyVersions ?? true,
    strictVersionHeader: options.strictVersionHeader ?? false,
  };
  const versionRouter = policy.legacy ? createJsonRpcVersionRouter(policy) : undefined;
  const dialectNames = checkDialects(options.dialects);
  // Made once loaded (an import started here, awaited by requests until it is done); `close()` ends what they hold.
  let dialects: Dialect[] = [];
  let dialectRpc: ReturnType<typeof chainJsonRpcRouters>;
  let closing = false;
  let dialectsLoaded = dialectNames.length === 0;
  const dialectsReady = dialectsLoaded
    ? undefined
    : import('../compat/dialects/make-dialects.js').then(({ makeDialects }) => {
        dialects = makeDialects(dialectNames);
        dialectRpc = chainJsonRpcRouters(dialects.map((d) => d.jsonRpc));
        dialectsLoaded = true;
        if (closing) for (const dialect of dialects) dialect.close?.();
      });
  // With a base path, the well-known documents are also at the origin root, where clients look (RFC 8615).
  const rootPaths = new Set(basePath ? [cardPath, ...(policy.legacy ? [LEGACY_CARD_PATH] : []), jwksPath] : []);
  const mount: HandlerMount = { basePath, rootPaths: [...rootPaths] };
  const declaredExtensions = new Set((engine.capabilities.extensions ?? []).map((e) => e.uri));
  // v0.3 REST (made at its first request).
  let v03RestWire: { match: typeof matchV03Rest; serve: V03RestServer } | undefined;
  async function loadV03Rest() {
    const { createV03RestServer, matchV03Rest } = await v03RestModule();
    v03RestWire ??= {
      match: matchV03Rest,
      serve: createV03RestServer({ streamFrames: options.v03RestStreamFrames ?? 'proto' }),
    };
    return v03RestWire;
  }
  // v0.2's extended card over plain HTTP, with the other older wires when the card declares one (made at its first
  // request).
  const v02CardServed = policy.legacy && Boolean(engine.capabilities.extendedAgentCard);
  let v02Card: Dialect | undefined;
  async function loadV02Card() {
    const { v02ExtendedCard } = await v02CardModule();
    v02Card ??= v02ExtendedCard();
    return v02Card;
  }

  const extraInterfaces: AgentInterface[] = [];
  const publishCard = cardPublisher({
    base: engine.agentCard,
    jsonRpcPath,
    restPath,
    legacy: policy.legacy,
    extra: () => extraInterfaces,
  });
  const agentCard = (baseUrl: string) => publishCard(baseUrl)(engine.agentCard);
  const cards = new VersionedCardRoutes(agentCard, {
    maxAgeSeconds: options.cardMaxAgeSeconds ?? 300,
    headerless: policy.legacy ? (options.headerlessCard ?? 'superset') : 'v1',
    signing: options.signAgentCard,
    jwksUrl: (baseUrl) => joinUrl(baseUrl, jwksPath),
  });

  // Our Node bridge reads the lazy responses' body beside them; every other host gets plain Responses.
  async function handle(request: Request, handleOptions?: HandleOptions): Promise<Response | undefined> {
    const response = await route(request, handleOptions);
    return response && !isPrepared(request) ? plainResponse(response) : response;
  }

  async function route(request: Request, handleOptions: HandleOptions = {}): Promise<Response | undefined> {
    const url = parseRequestUrl(request.url);
    const method = request.method;
    let path: string;
    let prefix: string;
    let atRoot = false; // one of the well-known documents at the origin root
    if (basePath) {
      // Routed by the URL's own path, however the framework mounted the adapter.
      const full = url.pathname;
      const under = full.startsWith(basePath) && (full.length === basePath.length || full[basePath.length] === '/');
      if (!under && !(rootPaths.has(full) && (method === 'GET' || method === 'HEAD'))) return undefined;
      path = under ? full.slice(basePath.length) : full;
      prefix = basePath;
      atRoot = !under;
    } else {
      path = handleOptions.pathname ?? url.pathname;
      prefix = url.pathname.endsWith(path) ? url.pathname.slice(0, url.pathname.length - path.length) : '';
    }
    const origin = (trustProxy && forwardedOrigin(request.headers, url.origin)) || url.origin;
    const baseUrl = options.publicUrl ?? `${origin}${prefix}`;
    const version = requestedVersion(request, url);

    // The bridge could not read the request as sent (an invalid Host): refused on our paths, others left to the host.
    const refused = preparedRefusal(request);
    const legacyCard = policy.legacy && path === LEGACY_CARD_PATH;
    if (health && path === healthPath && READ_METHODS.has(method)) return health(method);
    // The card and key paths are ours whatever the method (OPTIONS stays with the host's CORS handling).
    if ((path === cardPath || legacyCard || path === jwksPath) && !READ_METHODS.has(method) && method !== 'OPTIONS') {
      return statusErrorResponse(new A2AError('MethodNotAllowed', `Method ${method} not allowed here`), {
        allow: 'GET, HEAD',
      });
    }
    if ((path === cardPath || legacyCard) && (method === 'GET' || method === 'HEAD')) {
      if (refused) return statusErrorResponse(refused);
      return cards.serve(request, baseUrl, cards.variant(version, legacyCard));
    }
    // The push signer's and the card signer's public keys.
    if (path === jwksPath && (method === 'GET' || method === 'HEAD')) {
      if (refused) return statusErrorResponse(refused);
      const jwks = await cards.jwks(await engine.pushNotifications?.jwksResponse?.());
      if (jwks) return jwks;
    }
    if (atRoot) return undefined; // no JWKS to serve: not a route

    const isJsonRpc = jsonRpcPath !== false && method === 'POST' && samePath(path, jsonRpcPath);
    const onRest = !isJsonRpc && restPath !== false && path.startsWith(restPath);
    const restRelative = onRest ? path.slice(restPath.length) || '/' : '';
    // v0.3 REST lives under `/v1/` (a v1.0 client naming version 1.0 still reaches a tenant called `v1`).
    const v03Rest = restRelative.startsWith('/v1/') && policy.legacy && version !== '1.0';
    // `/v1/card` is v0.3's authenticated extended card; an agent without one serves its public card there.
    const publicV03Card = v03Rest && restRelative === '/v1/card' && !engine.capabilities.extendedAgentCard;
    if (publicV03Card && (method === 'GET' || method === 'HEAD')) {
      if (refused) return statusErrorResponse(refused);
      return cards.serve(request, baseUrl, 'superset');
    }
    const v03Match = v03Rest ? (v03RestWire ?? (await loadV03Rest())).match(method, restRelative) : undefined;
    const restCandidate = onRest && !v03Match ? matchRest(method, restRelative) : undefined;
    // What v1.0 serves stays v1.0's (a tenant called `sessions` keeps `/sessions/message:send`); dialects and the v0.2
    // card take the rest of their paths, answering there instead of v1.0's 405 (`DELETE /tasks/{id}`).
    const v1Serves = restCandidate !== undefined && !('allowed' in restCandidate);
    if (!dialectsLoaded) await dialectsReady;
    const dialectRoute: DialectRoute | undefined =
      isJsonRpc || v03Match || v1Serves || method === 'OPTIONS'
        ? undefined
        : ((v02CardServed && path === V02_EXTENDED_CARD_PATH
            ? (v02Card ?? (await loadV02Card())).match?.(method, path)
            : undefined) ?? (onRest ? matchDialects(dialects, method, restRelative) : undefined));
    const restMatch = dialectRoute ? undefined : restCandidate;
    if (!isJsonRpc && !restMatch && !v03Match && !dialectRoute) return undefined;
    if (restMatch && 'allowed' in restMatch) {
      return statusErrorResponse(
        new A2AError('MethodNotAllowed', `Method ${method} not allowed here`),
        { allow: [...new Set(restMatch.allowed)].join(', ') },
        restMediaType(request),
      );
    }
    const fail = async (error: A2AError, headers: HeaderInit = {}) =>
      isJsonRpc
        ? jsonRpcErrorResponse(await peekJsonRpcId(request, settings.maxBodyBytes), error, headers)
        : dialectRoute
          ? dialectRoute.fail(error, headers)
          : statusErrorResponse(error, headers, restMediaType(request));
    if (refused) return fail(refused);

    const telemetry = startRequestTelemetry({
      binding: isJsonRpc ? 'JSONRPC' : 'HTTP+JSON',
      version,
      tenant: handleOptions.context?.tenant ?? restMatch?.tenant,
      headers: request.headers,
      httpMethod: method,
      path: url.pathname,
      origin: url.origin,
    });
    const matched = { isJsonRpc, restMatch, v03Match, dialectRoute, version, baseUrl, fail };
    if (!telemetry) return serve(request, url, handleOptions, undefined, matched);
    const response = await telemetry.run(() => serve(request, url, handleOptions, telemetry, matched));
    telemetry.finish(response);
    return response;
  }

  /** One A2A operation on a matched route, answered (errors included). */
  async function serve(
    request: Request,
    url: RequestUrl,
    handleOptions: HandleOptions,
    telemetry: RequestTelemetry | undefined,
    matched: {
      isJsonRpc: boolean;
      restMatch: ReturnType<typeof matchRest>;
      v03Match: ReturnType<typeof matchV03Rest>;
      dialectRoute: DialectRoute | undefined;
      version: string | undefined;
      baseUrl: string;
      fail: (error: A2AError, headers?: HeaderInit) => Promise<Response>;
    },
  ): Promise<Response> {
    const { isJsonRpc, restMatch, v03Match, dialectRoute, version, baseUrl, fail } = matched;
    try {
      // Dialects and the v0.2 card have no A2A-Version of their own to check.
      if (!dialectRoute) checkServedVersion(version, policy, isJsonRpc ? 'jsonrpc' : v03Match ? 'rest-v0.3' : 'rest');
      if (isJsonRpc && !isJsonContentType(request.headers.get('content-type'))) {
        throw new A2AError('UnsupportedMediaType', 'Content-Type must be application/json or application/a2a+json');
      }
      // The adapter's caller (the framework's auth) wins; the handler's own hook fills what it left out.
      const given = handleOptions.context ?? {};
      const hooked = options.context && !given.user ? await options.context(request) : undefined;
      const context: A2ARequestContext = { user: given.user ?? hooked?.user, tenant: given.tenant ?? hooked?.tenant };
      authorize(engine.agentCard, context.user);

      const requested = parseList(request.headers.get('a2a-extensions') ?? request.headers.get('x-a2a-extensions'));
      const activated = requested.filter((uri) => declaredExtensions.has(uri));
      const headers: HeaderInit = activated.length ? { 'a2a-extensions': activated.join(', ') } : {};
      const call = new RequestCall(
        {
          user: context.user,
          tenant: context.tenant,
          extensions: activated,
          lastEventId: request.headers.get('last-event-id') ?? undefined,
        },
        requestDisconnect(request), // the Node bridge's request view makes its signal on first read
      );
      const env: OperationEnv = { handler: engine, call, publishCard: publishCard(baseUrl), telemetry };
      // Written out: on Node 20 a spread followed by new keys costs ~2 µs (V8 makes a fresh map each time).
      const { maxBodyBytes, maxJsonDepth, keepAliveMs, earlyErrors } = settings;
      const versions = dialectRpc
        ? chainJsonRpcRouters([dialectRpc, versionRouter?.(version)])
        : versionRouter?.(version);
      const routeSettings = { maxBodyBytes, maxJsonDepth, keepAliveMs, earlyErrors, onError, headers, versions };
      if (v03Match)
        return await (v03RestWire as { serve: V03RestServer }).serve(request, url, v03Match, env, routeSettings);
      if (dialectRoute) return await dialectRoute.serve(request, url, env, routeSettings);
      return isJsonRpc
        ? await serveJsonRpc(request, env, routeSettings)
        : await serveRest(
            request,
            url,
            restMatch as Exclude<typeof restMatch, { allowed: string[] } | undefined>,
            env,
            routeSettings,
          );
    } catch (error) {
      telemetry?.fail(error);
      if (!isA2AError(error)) {
        onError(error);
        return fail(new A2AError('Internal', 'Internal error'));
      }
      const headers: HeaderInit =
        error.type === 'Unauthenticated' ? { 'www-authenticate': challenges(engine.agentCard) } : {};
      return fail(error, headers);
    }
  }

  return {
    handle,
    async fetch(request, handleOptions) {
      return (await handle(request, handleOptions)) ?? new Response('Not Found', { status: 404 });
    },
    requestHandler: engine,
    agentCard,
    publishCard: (card, baseUrl = options.publicUrl) => publishCard(baseUrl)(card),
    addInterface(agentInterface) {
      extraInterfaces.push(agentInterface);
      cards.invalidate();
      return () => {
        const at = extraInterfaces.indexOf(agentInterface);
        if (at < 0) return;
        extraInterfaces.splice(at, 1);
        cards.invalidate();
      };
    },
    mount,
    close: (closeOptions) => {
      closing = true;
      for (const dialect of dialects) dialect.close?.();
      return engine.close(closeOptions);
    },
  };
}

function requireEngineOptions(options: A2AHandlerOptions): RequestHandlerOptions {
  if (!options || typeof options !== 'object') {
    throw new TypeError('createA2AHandler needs options: { agentCard, executor } or { requestHandler }');
  }
  if (!options.agentCard || !options.executor) {
    const missing = [!options.agentCard && 'agentCard', !options.executor && 'executor'].filter(Boolean).join(' and ');
    throw new TypeError(
      `createA2AHandler needs an agentCard and an executor (missing: ${missing}), or a prepared requestHandler`,
    );
  }
  return options as RequestHandlerOptions;
}

/** '' (none) or a path such as '/a2a', without its trailing slash. */
function checkBasePath(basePath: string | undefined): string {
  if (basePath === undefined || basePath === '' || basePath === '/') return '';
  if (typeof basePath !== 'string' || !/^\/[^?#]*$/.test(basePath)) {
    throw new TypeError(
      `createA2AHandler: basePath must be a path starting with '/', e.g. '/a2a' (got ${String(basePath)})`,
    );
  }
  return basePath.replace(/\/+$/, '');
}

/** `A2A-Version` from the header or the query, as Major.Minor; `undefined` when absent or empty. */
export function requestedVersion(request: Request, url: RequestUrl): string | undefined {
  const raw = request.headers.get('a2a-version') ?? (url.search ? url.searchParams.get('A2A-Version') : null) ?? '';
  if (raw.trim() === '') return undefined;
  const match = /^\s*v?(\d+)\.(\d+)/.exec(raw);
  return match ? `${Number(match[1])}.${Number(match[2])}` : raw.trim();
}

const parseList = (header: string | null): string[] =>
  header
    ? header
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean)
    : [];

const samePath = (a: string, b: string) => a === b || (a === '' && b === '/') || a === `${b}/`;
