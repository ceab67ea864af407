import { cardPublisher, joinUrl } from '../card/publish-card.js';
import { VersionedCardRoutes } from '../card/versioned-card-routes.js';
import { chainJsonRpcRouters, checkDialects } from '../compat/dialects/dialect.js';
import { checkServedVersion, createJsonRpcVersionRouter, type VersionPolicy } from '../compat/negotiate.js';
import { A2AError, isA2AError } from '../errors.js';
import { isJsonContentType } from '../http/body.js';
import { checkFetchRequest } from '../http/check-mountable.js';
import { forwardedOrigin } from '../http/forwarded-origin.js';
import { healthCheck } from '../http/health.js';
import { DEFAULT_MAX_JSON_DEPTH } from '../http/json-depth.js';
import { type JsonRpcVersionRouter, peekJsonRpcId, serveJsonRpc } from '../http/json-rpc.js';
import type { A2ARequestContext, HandleOptions, HandlerMount, MountableHandler } from '../http/mountable-handler.js';
import { isPrepared, plainResponse, preparedRefusal, requestDisconnect } from '../http/prepared.js';
import { parseRequestUrl, type RequestUrl } from '../http/request-url.js';
import { requestedVersion } from '../http/requested-version.js';
import { type HeaderInit, jsonRpcErrorResponse, restMediaType, statusErrorResponse } from '../http/responses.js';
import { serveRest } from '../http/rest.js';
import { authorize, challenges } from '../http/security.js';
import { unknownOptionWarnings } from '../http/unknown-options.js';
import type { AgentCard, AgentInterface } from '../schemas/agent-card.js';
import type { AgentCardInput } from '../server/agent-card-input.js';
import { RequestCall } from '../server/call-context.js';
import type { OperationEnv } from '../server/operations.js';
import { A2ARequestHandler } from '../server/request-handler.js';
import type { CloseOptions } from '../server/request-handler-options.js';
import { RequestTelemetry } from '../telemetry/request-telemetry.js';
import { telemetry } from '../telemetry/telemetry.js';
import { type A2AHandlerOptions, checkBasePath, OPTION_NAMES, requireEngineOptions } from './handler-options.js';
import { LazyWires } from './lazy-wires.js';
import { LEGACY_CARD_PATH, locate, matchRoute, type OperationRoute, type RouteTable } from './match-route.js';

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

const CARD_PATH = '/.well-known/agent-card.json';

/**
 * The whole A2A server as one Fetch-style handler: JSON-RPC, HTTP+JSON, the agent card and SSE. The composition
 * root: `HandlerRuntime` resolves the options, makes the engine, the cards and the wires, and answers what
 * `matchRoute` finds; this is its public face.
 */
export function createA2AHandler(options: A2AHandlerOptions): A2AHttpHandler {
  const runtime = new HandlerRuntime(options);
  return {
    handle: (request, handleOptions) => {
      checkFetchRequest(request, 'handle');
      return runtime.handle(request, handleOptions);
    },
    fetch: (request, handleOptions) => {
      checkFetchRequest(request, 'fetch');
      return runtime.fetch(request, handleOptions);
    },
    requestHandler: runtime.engine,
    agentCard: (baseUrl) => runtime.agentCard(baseUrl),
    publishCard: (card, baseUrl = options.publicUrl) => runtime.publishCard(baseUrl)(card),
    addInterface: (agentInterface) => runtime.addInterface(agentInterface),
    mount: runtime.mount,
    close: (closeOptions) => runtime.close(closeOptions),
  };
}

/**
 * One handler: what `createA2AHandler` resolved from its options, and the request path as methods, in order:
 * `handle` → `route` (`locate`, `matchRoute`, then the card, JWKS and health answers) → `operation` (telemetry) →
 * `serve` (version, content type, caller, auth, then the binding by `route.wire`); `fail` answers a refusal in the
 * wire's error shape.
 */
class HandlerRuntime {
  readonly engine: A2ARequestHandler;
  readonly mount: HandlerMount;
  /** The public card's interfaces and defaults filled in for a base URL (`cardPublisher`). */
  readonly publishCard: ReturnType<typeof cardPublisher>;
  private readonly publicUrl: string | undefined;
  private readonly trustProxy: boolean;
  private readonly contextHook: A2AHandlerOptions['context'];
  private readonly onError: (error: unknown) => void;
  private readonly settings: HandlerSettings;
  private readonly policy: VersionPolicy;
  private readonly versionRouter: ((requested: string | undefined) => JsonRpcVersionRouter) | undefined;
  private readonly lazy: LazyWires;
  private readonly table: RouteTable;
  private readonly health: ReturnType<typeof healthCheck> | undefined;
  private readonly declaredExtensions: ReadonlySet<string>;
  private readonly extraInterfaces: AgentInterface[] = [];
  private readonly cards: VersionedCardRoutes;
  private lastCards: { baseUrl: string; publish: (card: AgentCardInput) => AgentCard } | undefined;
  private lastVersions:
    | {
        version: string | undefined;
        dialect: JsonRpcVersionRouter | undefined;
        versions: JsonRpcVersionRouter | undefined;
      }
    | undefined;

  constructor(options: A2AHandlerOptions) {
    const engine = options?.requestHandler ?? new A2ARequestHandler(requireEngineOptions(options));
    this.engine = engine;
    for (const warning of unknownOptionWarnings(options, OPTION_NAMES)) engine.log.warn(warning);
    const basePath = checkBasePath(options.basePath);
    const onError = options.onError ?? ((e: unknown) => engine.log.error(e));
    this.onError = onError;
    this.publicUrl = options.publicUrl;
    this.contextHook = options.context;
    const jsonRpcPath = options.routes?.jsonRpc === undefined ? '/' : options.routes.jsonRpc;
    this.trustProxy = options.trustProxy === true;
    const restPath = options.routes?.rest === undefined ? '' : options.routes.rest;
    const cardPath = options.routes?.agentCard ?? CARD_PATH;
    const jwksPath = options.routes?.jwks ?? '/.well-known/jwks.json';
    const healthOptions = options.health === true ? {} : options.health || undefined;
    this.health = healthOptions && healthCheck(engine, healthOptions);
    this.settings = {
      maxBodyBytes: options.maxBodyBytes ?? 4 * 1024 * 1024,
      maxJsonDepth: options.maxJsonDepth ?? DEFAULT_MAX_JSON_DEPTH,
      keepAliveMs: options.keepAliveMs ?? 15_000,
      earlyErrors: options.earlyStreamErrors ?? 'json',
    };
    const policy: VersionPolicy = {
      legacy: options.legacyVersions ?? true,
      strictVersionHeader: options.strictVersionHeader ?? false,
    };
    this.policy = policy;
    this.versionRouter = policy.legacy ? createJsonRpcVersionRouter(policy) : undefined;
    this.lazy = new LazyWires({
      dialects: checkDialects(options.dialects),
      v03RestStreamFrames: options.v03RestStreamFrames ?? 'proto',
    });
    // With a base path, the well-known documents are also at the origin root, where clients look (RFC 8615).
    const rootPaths = new Set(basePath ? [cardPath, ...(policy.legacy ? [LEGACY_CARD_PATH] : []), jwksPath] : []);
    this.table = {
      basePath,
      rootPaths,
      jsonRpcPath,
      restPath,
      cardPath,
      jwksPath,
      healthPath: healthOptions && (healthOptions.path ?? '/healthz'),
      legacy: policy.legacy,
      extendedCard: Boolean(engine.capabilities.extendedAgentCard),
    };
    this.mount = { basePath, rootPaths: [...rootPaths] };
    this.declaredExtensions = new Set((engine.capabilities.extensions ?? []).map((e) => e.uri));

    this.publishCard = cardPublisher({
      base: engine.agentCard,
      jsonRpcPath,
      restPath,
      legacy: policy.legacy,
      extra: () => this.extraInterfaces,
    });
    this.cards = new VersionedCardRoutes((baseUrl) => this.agentCard(baseUrl), {
      maxAgeSeconds: options.cardMaxAgeSeconds ?? 300,
      headerless: policy.legacy ? (options.headerlessCard ?? 'superset') : 'v1',
      signing: options.signAgentCard,
      jwksUrl: (baseUrl) => joinUrl(baseUrl, jwksPath),
    });
  }

  /** The public card as served for a base URL. */
  agentCard(baseUrl: string): AgentCard {
    return this.publishCard(baseUrl)(this.engine.agentCard);
  }

  /** Lists an interface served beside this handler in the served cards; returns the function that removes it. */
  addInterface(agentInterface: AgentInterface): () => void {
    const { extraInterfaces, cards } = this;
    extraInterfaces.push(agentInterface);
    cards.invalidate();
    return () => {
      const at = extraInterfaces.indexOf(agentInterface);
      if (at < 0) return;
      extraInterfaces.splice(at, 1);
      cards.invalidate();
    };
  }

  close(closeOptions?: CloseOptions): Promise<void> {
    this.lazy.close();
    return this.engine.close(closeOptions);
  }

  /** `handle` with 404 instead of `undefined`, for Fetch-native hosts. */
  async fetch(request: Request, handleOptions?: HandleOptions): Promise<Response> {
    return (await this.handle(request, handleOptions)) ?? new Response('Not Found', { status: 404 });
  }

  /**
   * A request answered, or `undefined` when it is not one of ours. Not an async function: our Node bridge's request
   * gets `route`'s own promise (an async frame and its hops per request less, issue 39, docs/performance.md
   * "Hot-path tricks"); every other host gets plain Responses.
   */
  handle(request: Request, handleOptions?: HandleOptions): Promise<Response | undefined> {
    let routed: ReturnType<HandlerRuntime['route']>;
    try {
      routed = this.route(request, handleOptions);
    } catch (error) {
      return Promise.reject(error);
    }
    // Our Node bridge reads the lazy responses' body beside them.
    if (isPrepared(request)) return routed instanceof Promise ? routed : Promise.resolve(routed);
    return Promise.resolve(routed).then((response) => response && plainResponse(response));
  }

  /**
   * Places the request (`locate`), matches it (`matchRoute`) and answers the match. An operation (every A2A call)
   * goes straight to {@link operation}, without an async frame of its own (docs/performance.md, "Hot-path tricks");
   * other matches are answered by {@link answer}.
   */
  private route(
    request: Request,
    handleOptions: HandleOptions = {},
  ): Promise<Response | undefined> | Response | undefined {
    const { table, lazy } = this;
    const url = parseRequestUrl(request.url);
    const method = request.method;
    const located = locate(table, method, url.pathname, handleOptions.pathname);
    if (!located) return undefined;
    const origin = (this.trustProxy && forwardedOrigin(request.headers, url.origin)) || url.origin;
    const baseUrl = this.publicUrl ?? `${origin}${located.prefix}`;
    const version = requestedVersion(request, url);
    // The bridge could not read the request as sent (an invalid Host): refused on our paths, others left to the host.
    const refused = preparedRefusal(request);
    // Written out, not spread: see `serve` below.
    const { path, prefix, atRoot } = located;
    const routeRequest = { path, prefix, atRoot, method, version, skipJwks: false };
    const match = matchRoute(table, lazy.wires, routeRequest);
    if (match.kind === 'operation') {
      return this.operation(request, url, handleOptions, { route: match.route, version, baseUrl, refused });
    }
    return this.answer(request, url, handleOptions, routeRequest, baseUrl, refused, match);
  }

  /** The route's answer to `first` and the matches after it (a wire loaded, no JWKS to serve). */
  private async answer(
    request: Request,
    url: RequestUrl,
    handleOptions: HandleOptions,
    routeRequest: Parameters<typeof matchRoute>[2],
    baseUrl: string,
    refused: ReturnType<typeof preparedRefusal>,
    first: ReturnType<typeof matchRoute>,
  ): Promise<Response | undefined> {
    const { table, lazy } = this;
    const { method, version } = routeRequest;
    for (let match = first; ; match = matchRoute(table, lazy.wires, routeRequest)) {
      switch (match.kind) {
        case 'none':
          return undefined;
        case 'load':
          await lazy.load(match.wire);
          continue;
        case 'health':
          return this.health?.(method);
        case 'not-allowed':
          return statusErrorResponse(
            new A2AError('MethodNotAllowed', `Method ${method} not allowed here`),
            { allow: match.allow },
            match.rest ? restMediaType(request) : undefined,
          );
        case 'card': {
          if (refused) return statusErrorResponse(refused);
          const { cards } = this;
          return cards.serve(request, baseUrl, match.superset ? 'superset' : cards.variant(version, match.legacyPath));
        }
        case 'jwks': {
          // The push signer's and the card signer's public keys.
          if (refused) return statusErrorResponse(refused);
          const jwks = await this.cards.jwks(await this.engine.pushNotifications?.jwksResponse?.());
          if (jwks) return jwks;
          routeRequest.skipJwks = true; // none to serve: the path is matched as any other
          continue;
        }
        case 'operation':
          // Awaited, not returned: an async function that returns a promise adopts it through two more jobs and
          // promises (docs/performance.md, "Hot-path tricks").
          return await this.operation(request, url, handleOptions, { route: match.route, version, baseUrl, refused });
      }
    }
  }

  /** An A2A operation's route: refused, or served inside the request's telemetry. */
  private operation(
    request: Request,
    url: RequestUrl,
    handleOptions: HandleOptions,
    matched: Matched,
  ): Promise<Response> {
    // Not async: the untraced request is `serve`'s own promise, no frame of its own.
    const { route } = matched;
    if (matched.refused) return this.fail(request, route, matched.refused);
    // The OpenTelemetry check first: no init object for a request that has no telemetry (issue 39).
    const registered = telemetry();
    if (!registered) return this.serve(request, url, handleOptions, undefined, matched);
    const requestTelemetry = new RequestTelemetry(registered, {
      binding: route.wire === 'jsonrpc' ? 'JSONRPC' : 'HTTP+JSON',
      version: matched.version,
      tenant: handleOptions.context?.tenant ?? (route.wire === 'rest' ? route.match.tenant : undefined),
      headers: request.headers,
      httpMethod: request.method,
      path: url.pathname,
      origin: url.origin,
    });
    return this.traced(requestTelemetry, () => this.serve(request, url, handleOptions, requestTelemetry, matched));
  }

  private async traced(telemetry: RequestTelemetry, serve: () => Promise<Response>): Promise<Response> {
    const response = await telemetry.run(serve);
    telemetry.finish(response);
    return response;
  }

  /**
   * One A2A operation on a matched route, answered (errors included) by its wire's binding. Not an async function:
   * its checks and the call's set-up are synchronous, and an async frame this size (its registers) cost ~1.8 KB per
   * request; the binding's promise is handed on (docs/performance.md, "Hot-path tricks").
   */
  private serve(
    request: Request,
    url: RequestUrl,
    handleOptions: HandleOptions,
    telemetry: RequestTelemetry | undefined,
    matched: Matched,
  ): Promise<Response> {
    let served: Promise<Response>;
    try {
      const { route, version } = matched;
      // Dialects and the v0.2 card have no A2A-Version of their own to check.
      if (route.wire !== 'dialect') {
        checkServedVersion(
          version,
          this.policy,
          route.wire === 'jsonrpc' ? 'jsonrpc' : route.wire === 'v03-rest' ? 'rest-v0.3' : 'rest',
        );
      }
      if (route.wire === 'jsonrpc' && !isJsonContentType(request.headers.get('content-type'))) {
        throw new A2AError('UnsupportedMediaType', 'Content-Type must be application/json or application/a2a+json');
      }
      // The adapter's caller (the framework's auth) wins; the handler's own hook fills what it left out.
      const given = handleOptions.context ?? {};
      if (this.contextHook && !given.user) served = this.serveHooked(request, url, given, telemetry, matched);
      else {
        served = this.dispatch(request, url, given, undefined, telemetry, matched);
        // JSON-RPC answers its own failures (`serveJsonRpc` never rejects): no `then` and hop for a failure that
        // cannot come (issue 39, docs/performance.md "Per request").
        if (route.wire === 'jsonrpc') return served;
      }
    } catch (error) {
      return this.failed(request, matched.route, telemetry, error);
    }
    return served.then(undefined, (error: unknown) => this.failed(request, matched.route, telemetry, error));
  }

  /** {@link serve} after the handler's own `context` hook. */
  private async serveHooked(
    request: Request,
    url: RequestUrl,
    given: A2ARequestContext,
    telemetry: RequestTelemetry | undefined,
    matched: Matched,
  ): Promise<Response> {
    const hooked = await this.contextHook?.(request);
    return this.dispatch(request, url, given, hooked, telemetry, matched);
  }

  /** The call's context and settings, and the binding that answers it (a synchronous throw is a refusal). */
  private dispatch(
    request: Request,
    url: RequestUrl,
    given: A2ARequestContext,
    hooked: A2ARequestContext | undefined,
    telemetry: RequestTelemetry | undefined,
    { route, version, baseUrl }: Matched,
  ): Promise<Response> {
    const { engine, onError } = this;
    // The adapter's context as it is when there is no hook's to merge (one object per request less, issue 39).
    const context: A2ARequestContext = hooked
      ? {
          user: given.user ?? hooked.user,
          tenant: given.tenant ?? hooked.tenant,
          state: given.state ?? hooked.state,
        }
      : given;
    authorize(engine.agentCard, context.user);

    const requested = request.headers.get('a2a-extensions') ?? request.headers.get('x-a2a-extensions');
    const activated = requested ? parseList(requested).filter((uri) => this.declaredExtensions.has(uri)) : [];
    // Read when the response is built: until then the executor may change the set (ctx.activateExtension).
    const headers: HeaderInit = activated.length ? { 'a2a-extensions': activated.join(', ') } : {};
    const call = new RequestCall(
      {
        user: context.user,
        tenant: context.tenant,
        extensions: activated,
        lastEventId: request.headers.get('last-event-id') ?? undefined,
        state: context.state,
      },
      requestDisconnect(request), // the Node bridge's request view makes its signal on first read
      headers,
    );
    const env: OperationEnv = { handler: engine, call, publishCard: this.cardsFor(baseUrl), telemetry };
    // Written out: on Node 20 a spread followed by new keys costs ~2 µs (V8 makes a fresh map each time).
    const { maxBodyBytes, maxJsonDepth, keepAliveMs, earlyErrors } = this.settings;
    const versions = this.versionsFor(version);
    const routeSettings = { maxBodyBytes, maxJsonDepth, keepAliveMs, earlyErrors, onError, headers, versions };
    switch (route.wire) {
      case 'jsonrpc':
        return serveJsonRpc(request, env, routeSettings);
      case 'rest':
        return serveRest(request, url, route.match, env, routeSettings);
      case 'v03-rest':
        return route.server.serve(request, url, route.match, env, routeSettings);
      case 'dialect':
        return route.route.serve(request, url, env, routeSettings);
    }
  }

  /**
   * `publishCard(baseUrl)`, the last base URL's kept: nearly every request has the same one, and each call makes a
   * closure (issue 39, docs/performance.md "Per request"). One entry, so a client's Host header cannot grow it.
   */
  private cardsFor(baseUrl: string): (card: AgentCardInput) => AgentCard {
    const last = this.lastCards;
    if (last?.baseUrl === baseUrl) return last.publish;
    const publish = this.publishCard(baseUrl);
    this.lastCards = { baseUrl, publish };
    return publish;
  }

  /** The JSON-RPC version router for a requested version, the last one's kept (as {@link cardsFor}). */
  private versionsFor(version: string | undefined): JsonRpcVersionRouter | undefined {
    const { lazy, versionRouter } = this;
    const dialect = lazy.dialectRpc;
    const last = this.lastVersions;
    if (last && last.version === version && last.dialect === dialect) return last.versions;
    const versions = dialect ? chainJsonRpcRouters([dialect, versionRouter?.(version)]) : versionRouter?.(version);
    this.lastVersions = { version, dialect, versions };
    return versions;
  }

  /** A thrown or rejected operation: an A2A error answered as it is, anything else reported and answered Internal. */
  private failed(
    request: Request,
    route: OperationRoute,
    telemetry: RequestTelemetry | undefined,
    error: unknown,
  ): Promise<Response> {
    telemetry?.fail(error);
    if (!isA2AError(error)) {
      this.onError(error);
      return this.fail(request, route, new A2AError('Internal', 'Internal error'));
    }
    const headers: HeaderInit =
      error.type === 'Unauthenticated' ? { 'www-authenticate': challenges(this.engine.agentCard) } : {};
    return this.fail(request, route, error, headers);
  }

  /** A refused or failed operation, answered in its wire's error shape. */
  private async fail(
    request: Request,
    route: OperationRoute,
    error: A2AError,
    headers: HeaderInit = {},
  ): Promise<Response> {
    switch (route.wire) {
      case 'jsonrpc':
        return jsonRpcErrorResponse(await peekJsonRpcId(request, this.settings.maxBodyBytes), error, headers);
      case 'dialect':
        return route.route.fail(error, headers);
      case 'rest':
      case 'v03-rest':
        return statusErrorResponse(error, headers, restMediaType(request));
    }
  }
}

/** The limits and stream settings every binding is served with. */
interface HandlerSettings {
  maxBodyBytes: number;
  maxJsonDepth: number;
  keepAliveMs: number;
  earlyErrors: 'json' | 'event-stream';
}

/** A matched operation as `operation` and `serve` answer it. */
interface Matched {
  route: OperationRoute;
  version: string | undefined;
  baseUrl: string;
  /** The bridge's refusal of the request, answered instead of serving it. */
  refused: A2AError | undefined;
}

const parseList = (header: string): string[] =>
  header
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
