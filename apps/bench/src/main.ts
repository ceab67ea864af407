// Bench server: `node --expose-gc dist/main.js --adapter <node|express|koa|hapi|fastify|hono|nestjs|sdk> --port <n> [--host 127.0.0.1]
// [--max-tasks <n>] [--grpc-port <n>] [--otel noop] [--executor sdk-compat]`. Prints `READY <url> pid=<pid>` once listening (and
// `grpc=<host:port>` when @a2a/grpc serves the same handler; not for the sdk server). `--otel noop` registers the
// OpenTelemetry SDK with exporters that drop everything (the instrumentation's overhead; run.ts: adapter `express+otel`).
// `--executor sdk-compat` serves the echo agent written for @a2a-js/sdk 1.x (sdk-echo-agent.ts) through
// @a2a/sdk-compat's `fromSdkExecutor` instead of the native one (run.ts: adapter `node+compat`, `express+compat`).
// With `A2A_DATABASE_URL` set, the same server keeps its tasks in PostgreSQL (migrated, with execution leases;
// `A2A_INSTANCE_ID` names the instance), so two servers on one database are two instances of one agent; with
// `A2A_REDIS_URL` (and `A2A_REDIS_PREFIX`) the same on Redis. The `sdk` adapter has no durable store: it refuses it.
import type { Server } from 'node:http';
import type { A2AHttpHandler, AgentExecutor } from '@a2a/core';
import { createA2AGrpcServer } from '@a2a/grpc';
import { createTaskStoreFromEnv, type TaskStoreSetup } from '@a2a/postgres';
import { createTaskStoreFromEnv as redisStoreFromEnv } from '@a2a/redis';
import { numberArg, parseArgs } from './args.js';
import type { BenchOptions } from './bench-a2a.js';

export const ADAPTERS = ['node', 'express', 'koa', 'hapi', 'fastify', 'hono', 'nestjs', 'sdk'] as const;
export type Adapter = (typeof ADAPTERS)[number];

export async function startServer(
  adapter: Adapter,
  port: number,
  host: string,
  options: BenchOptions = {},
): Promise<Server> {
  switch (adapter) {
    case 'node':
      return (await import('./servers/node.js')).startNode(port, host, options);
    case 'express':
      return (await import('./servers/express.js')).startExpress(port, host, options);
    case 'koa':
      return (await import('./servers/koa.js')).startKoa(port, host, options);
    case 'hapi':
      return (await import('./servers/hapi.js')).startHapi(port, host, options);
    case 'fastify':
      return (await import('./servers/fastify.js')).startFastify(port, host, options);
    case 'hono':
      return (await import('./servers/hono.js')).startHono(port, host, options);
    case 'nestjs':
      return (await import('./servers/nestjs.js')).startNestjs(port, host, options);
    case 'sdk':
      return (await import('./servers/sdk.js')).startSdk(port, host);
  }
}

/**
 * The durable store when `A2A_DATABASE_URL` (PostgreSQL) or `A2A_REDIS_URL` (Redis) is set (not for the SDK's
 * server, which has its own store).
 */
export async function durableStoreFromEnv(
  adapter: Adapter,
  env: Record<string, string | undefined> = process.env,
): Promise<(TaskStoreSetup & { kind: 'postgresql' | 'redis' }) | undefined> {
  const name = env.A2A_DATABASE_URL ? 'A2A_DATABASE_URL' : env.A2A_REDIS_URL ? 'A2A_REDIS_URL' : undefined;
  if (!name) return undefined;
  if (adapter === 'sdk') throw new Error(`${name}: the sdk adapter has no durable store (unset it)`);
  if (name === 'A2A_REDIS_URL') return { ...(await redisStoreFromEnv(env)), postgres: undefined, kind: 'redis' };
  return { ...(await createTaskStoreFromEnv(env)), kind: 'postgresql' };
}

/** `--executor`: none (the native echo agent) or `sdk-compat` (the SDK-style one through @a2a/sdk-compat). */
export async function executorArg(adapter: Adapter, name: string | undefined): Promise<AgentExecutor | undefined> {
  if (name === undefined) return undefined;
  if (name !== 'sdk-compat') throw new Error(`--executor must be sdk-compat (got ${name})`);
  if (adapter === 'sdk') throw new Error('--executor sdk-compat: the sdk adapter runs the SDK executor itself');
  // A2A_BENCH_SDK_COMPAT: a copy of an earlier build's dist/index.js, for compat-ab.js's `--baseline` server.
  const module = process.env.A2A_BENCH_SDK_COMPAT ?? '@a2a/sdk-compat';
  const { fromSdkExecutor } = (await import(module)) as typeof import('@a2a/sdk-compat');
  const { SdkEchoExecutor } = await import('./sdk-echo-agent.js');
  return fromSdkExecutor(new SdkEchoExecutor());
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const adapter = (args.adapter ?? 'express') as Adapter;
  if (!ADAPTERS.includes(adapter)) throw new Error(`--adapter must be one of ${ADAPTERS.join(', ')}`);
  const host = args.host ?? '127.0.0.1';
  const port = numberArg(args, 'port', 41377);
  const maxTasks = args['max-tasks'] ? numberArg(args, 'max-tasks', 0) : undefined;
  if (args.otel === 'noop') (await import('./otel-noop.js')).startNoopOpenTelemetry();
  const durable = await durableStoreFromEnv(adapter);
  const executor = await executorArg(adapter, args.executor);
  let handler: A2AHttpHandler | undefined;
  const server = await startServer(adapter, port, host, {
    maxTasks,
    durable,
    executor,
    onHandler: (a2a) => (handler = a2a),
  });
  let grpc = '';
  if (args['grpc-port'] && handler) {
    const listener = createA2AGrpcServer(handler);
    grpc = ` grpc=${(await listener.listen({ host, port: numberArg(args, 'grpc-port', 0) })).address}`;
  }
  server.keepAliveTimeout = 65_000;
  const address = server.address();
  const bound = typeof address === 'object' && address ? address.port : port;
  const store = durable?.kind ?? 'memory';
  console.log(
    `READY http://${host}:${bound} pid=${process.pid} adapter=${adapter}${args.otel === 'noop' ? '+otel' : ''}${executor ? '+compat' : ''} store=${store} node=${process.version}${grpc}`,
  );
  // The documented order: the handler first (running agents stopped, their tasks failed and leases released), then
  // connections, then the store. Closing the store under running agents failed each of their writes.
  const stop = () => {
    void (handler?.close({ timeoutMs: 1000 }) ?? Promise.resolve()).finally(() => {
      server.closeAllConnections();
      server.close(() => void (durable?.close() ?? Promise.resolve()).finally(() => process.exit(0)));
    });
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
