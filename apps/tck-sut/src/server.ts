import { createServer, type Server } from 'node:http';
import { type A2AHandlerOptions, type A2AHttpHandler, createA2AHandler, type DialectName } from '@a2a/core';
import { createNodePushSender } from '@a2a/core/node';
import { a2aExpress } from '@a2a/express';
import { a2aFastify } from '@a2a/fastify';
import { createA2AGrpcServer, type GrpcStatusName } from '@a2a/grpc';
import { a2aHapi } from '@a2a/hapi';
import { a2aHono } from '@a2a/hono';
import { withA2ARequestErrors } from '@a2a/hono/node-server';
import { a2aKoa } from '@a2a/koa';
import { A2AModule } from '@a2a/nestjs';
import Hapi from '@hapi/hapi';
import { serve as serveHono } from '@hono/node-server';
import { NestFactory } from '@nestjs/core';
import express from 'express';
import Fastify from 'fastify';
import { Hono } from 'hono';
import Koa from 'koa';
import { actsCaller, actsCredential, actsSecurity, guardedExtendedCard } from './acts-auth.js';
import { createTckExecutor, type TckAgentOptions, tckAgentCard, tckExtendedCard } from './tck-agent.js';

export const ADAPTERS = ['express', 'koa', 'hapi', 'fastify', 'hono', 'nestjs'] as const;
export type AdapterName = (typeof ADAPTERS)[number];

export interface SutOptions extends TckAgentOptions {
  adapter?: AdapterName;
  host?: string;
  port?: number;
  /**
   * The card for requests without `A2A-Version`: 'superset' (default; parses as v0.3 and v1.0, what the v0.3 kit
   * needs) or 'v1' (the strict v1.0 card the 1.0 kit validates against its schema, though it sends no header).
   */
  headerlessCard?: 'superset' | 'v1';
  /**
   * Declare the extended card (default true). The kits disagree without credentials: the v1.0 kit expects the call to
   * succeed (no security scheme is declared, so every caller counts as authenticated), the v0.3 kit expects a refusal.
   * 'authenticated': declared, and only callers with an `Authorization` header are authenticated (the v0.3 kit's side).
   */
  extendedCard?: boolean | 'authenticated';
  /** Declare and enforce `urn:a2a:tck:required-extension` (the v1.0 kit's CORE-CAP-004). */
  requiredExtension?: boolean;
  /**
   * Accept parts of any media type (core's `acceptAnyInputMode`). Off by default: the spec (§3.1.1) wants
   * ContentTypeNotSupportedError, but the v1.0 kit's CORE-SEND-003 (at 357c4a8) sends an undeclared media type and
   * checks for a successful answer (its requirement names the error but sets no expected error).
   */
  acceptAnyInputMode?: boolean;
  /** Opt-in dialects (`A2A_DIALECTS=sessions,paraphrase`); none by default. */
  dialects?: DialectName[];
  /** Storage, e.g. from `createTaskStoreFromEnv()`; in-memory by default. */
  storage?: Pick<A2AHandlerOptions, 'taskStore' | 'coordinator'>;
  /** Also serve the gRPC binding on this port of `host` (0: a free one), listed in the card. Default: no gRPC. */
  grpcPort?: number | undefined;
  /**
   * gRPC status codes of the spec's v1.0.0 table, which the v1.0 kit checks (UNIMPLEMENTED for VersionNotSupported,
   * UnsupportedOperation and PushNotificationNotSupported; v1.0.1, core's table, says FAILED_PRECONDITION).
   */
  grpcV100Codes?: boolean;
  /** `close()` lets running tasks finish for this long (then fails them). Default 5 s. */
  shutdownTimeoutMs?: number;
  /**
   * ACTS mode (`ACTS=1`): the extended card is guarded by the ACTS runner's tokens, whatever `extendedCard` says (the
   * v1.0 TCK expects it open, hence a switch). `auth` (ITK_ACTS_AUTH): the card declares a bearer scheme and every
   * operation needs the token. `reducedCapabilities` (ITK_ACTS_REDUCED_CAPABILITIES): no streaming, push or
   * extended card.
   */
  acts?: ActsOptions | undefined;
}

export interface ActsOptions {
  auth?: boolean;
  reducedCapabilities?: boolean;
}

export interface RunningSut {
  url: string;
  /** `host:port` of the gRPC listener when one was asked for. */
  grpcAddress?: string | undefined;
  close(): Promise<void>;
}

/**
 * The A2A handler the kits test. Choices made here (not protocol patches): every caller is the authenticated user
 * `tck` (the kit has no credentials, and the extended card needs a caller; with `extendedCard: 'authenticated'` only
 * callers that send credentials), or in ACTS mode the user `acts` with the runner's token rule (acts-auth.ts);
 * webhooks on 127.0.0.1/localhost are allowed (the kits' receivers run there; a test-only opening of core's SSRF
 * guard, never for a deployed agent), with a short retry budget so unreachable kit URLs give up quickly.
 */
export function createTckHandler(options: SutOptions = {}): { a2a: A2AHttpHandler; close(): Promise<void> } {
  const sender = createNodePushSender({
    ssrf: { allow: ['127.0.0.1', 'localhost', '::1'] },
    retry: { maxAttempts: 3, baseDelayMs: 200, maxDelayMs: 1000 },
    timeoutMs: 3000,
    onDeliveryFailure: () => {},
  });
  const { acts } = options;
  const full = !acts?.reducedCapabilities;
  const agentCard = tckAgentCard({
    requiredExtension: options.requiredExtension ?? false,
    extendedCard: acts ? full : options.extendedCard !== false,
    streaming: full,
    pushNotifications: full,
    ...(acts?.auth && { security: actsSecurity() }),
  });
  const extendedAgentCard = tckExtendedCard(agentCard);
  const a2a = createA2AHandler({
    agentCard,
    executor: createTckExecutor(options),
    extendedAgentCard: acts ? guardedExtendedCard(extendedAgentCard) : extendedAgentCard,
    pushNotifications: sender,
    context: (request) => callerOf(options, request.headers.get('authorization')),
    headerlessCard: options.headerlessCard ?? 'superset',
    acceptAnyInputMode: options.acceptAnyInputMode ?? false,
    // The v0.3 kit's REST stream reader looks for bare kind-tagged objects (its resubscribe test needs the task id).
    v03RestStreamFrames: 'json',
    ...(options.dialects?.length && { dialects: options.dialects }),
    // Only the two fields: a createTaskStoreFromEnv() result also carries `postgres` and `close`.
    ...(options.storage?.taskStore && { taskStore: options.storage.taskStore }),
    ...(options.storage?.coordinator && { coordinator: options.storage.coordinator }),
  });
  return { a2a, close: async () => sender.close() };
}

/**
 * The caller of a request, by its `Authorization` value: ACTS's token rule in ACTS mode; for the kits, the user `tck`
 * (with `extendedCard: 'authenticated'`, only when credentials were sent).
 */
function callerOf(options: SutOptions, authorization: string | null | undefined) {
  if (options.acts) return actsCaller(actsCredential(authorization), options.acts.auth === true);
  return options.extendedCard === 'authenticated' && (authorization === null || authorization === undefined)
    ? undefined
    : { user: { id: 'tck' } };
}

/** Serves the handler at the root of an app of the chosen framework, the way a user mounts it. */
export async function startSut(options: SutOptions = {}): Promise<RunningSut> {
  const host = options.host ?? '127.0.0.1';
  const port = options.port ?? 0;
  const handler = createTckHandler(options);
  const { a2a } = handler;
  // Graceful: new requests get 503, streams end, running tasks get the grace period; then the server and the sender.
  const grpc = options.grpcPort === undefined ? undefined : await startGrpc(a2a, host, options);
  const close = async () => {
    await grpc?.server.close({ timeoutMs: 1000 });
    await a2a.close({ timeoutMs: options.shutdownTimeoutMs ?? 5000 });
    await handler.close();
  };
  const grpcAddress = grpc?.address;
  const adapter = options.adapter ?? 'express';
  if (adapter === 'hapi') {
    const server = Hapi.server({ host, port });
    await server.register({ plugin: a2aHapi, options: { handler: a2a } });
    await server.start();
    return {
      url: `http://${host}:${server.info.port}`,
      grpcAddress,
      close: async () => {
        await close();
        await server.stop({ timeout: 1000 });
      },
    };
  }
  if (adapter === 'fastify') {
    const app = Fastify();
    await app.register(a2aFastify, { handler: a2a });
    await app.listen({ port, host });
    return {
      url: `http://${host}:${(app.server.address() as { port: number }).port}`,
      grpcAddress,
      close: async () => {
        await close();
        await app.close();
      },
    };
  }
  let server: Server;
  if (adapter === 'hono') {
    const app = new Hono();
    app.route('/', a2aHono(a2a));
    // Hono's Node server is already listening on `port` (or about to): wait for it rather than listening again.
    // As the Hono README has it: a Host or target node-server cannot parse reaches the app and gets the A2A answer.
    server = serveHono(withA2ARequestErrors({ fetch: app.fetch, port, hostname: host })) as Server;
    await new Promise((resolve) => server.once('listening', resolve));
  } else if (adapter === 'nestjs') {
    // Nest's Express platform with its body parser (the default), the module at the root.
    const app = await NestFactory.create(A2AModule.forRoot({ handler: a2a }), { logger: false });
    await app.listen(port, host);
    server = app.getHttpServer();
  } else if (adapter === 'koa') {
    const app = new Koa();
    app.use(a2aKoa(a2a) as Koa.Middleware);
    server = createServer(app.callback());
  } else {
    const app = express();
    app.use(express.json());
    app.use(a2aExpress(a2a));
    server = createServer(app);
  }
  if (!server.listening) await new Promise<void>((resolve) => server.listen(port, host, resolve));
  const { port: actual } = server.address() as { port: number };
  return {
    url: `http://${host}:${actual}`,
    grpcAddress,
    close: async () => {
      await close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

const V100_CODES: Partial<
  Record<'VersionNotSupported' | 'UnsupportedOperation' | 'PushNotificationNotSupported', GrpcStatusName>
> = {
  VersionNotSupported: 'UNIMPLEMENTED',
  UnsupportedOperation: 'UNIMPLEMENTED',
  PushNotificationNotSupported: 'UNIMPLEMENTED',
};

/** The gRPC listener over the same handler (same engine and store), with the HTTP side's caller rule. */
async function startGrpc(a2a: A2AHttpHandler, host: string, options: SutOptions) {
  const server = createA2AGrpcServer(a2a, {
    context: (metadata) => {
      const [authorization] = metadata.get('authorization');
      return callerOf(options, authorization === undefined ? undefined : String(authorization));
    },
    ...(options.grpcV100Codes ? { statusCodes: V100_CODES } : {}),
  });
  const { address } = await server.listen({ host, port: options.grpcPort ?? 0 });
  return { server, address };
}
