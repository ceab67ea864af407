#!/usr/bin/env node
// In-process A/B of a framework adapter's cost per request (docs/performance.md, "Per request (issue 39)", the
// slower frameworks; Fetch-host streams). Like scripts/per-request.mjs, for @a2a/koa, @a2a/hapi, @a2a/express,
// @a2a/nestjs, @a2a/fastify and @a2a/hono (on `@hono/node-server`, through `withA2ARequestErrors`, as the bench serves it):
//
//   node --expose-gc scripts/adapter-per-request.mjs --adapter koa [--dist packages/koa/dist] [--dist <other dist>]
//        [--core <core dist>]... [--scenarios raw,card,send,stream] [--rounds 5] [--requests 2000] [--connections 16]
//
// Each `--dist` (a built adapter dist folder; default the checkout's) mounts the bench's echo agent
// (apps/bench/dist/bench-a2a.js, `pnpm --dir apps/bench build`) on its own app of that framework in this process,
// beside the bench's raw JSON echo route on the same app, the way apps/bench/src/servers/ does. A raw-socket client
// in the same process sends the bench's requests over keep-alive connections, closed loop, and rounds alternate the
// variants slice by slice. CPU per request: `process.cpuUsage()` over a slice / its requests (server and client
// together; compare variants, and each against its own raw echo, within one run).
// To compare a change with its baseline, copy the baseline's dist aside inside the package, so its dependencies still
// resolve (e.g. `cp -r packages/koa/dist packages/koa/node_modules/.base-dist`), rebuild, and pass both.
// `--core`, once per `--dist` (or once for all): the variant runs on that built `@a2a/core` dist instead of the
// checkout's (a change in core, measured through a framework): the adapter's dist is copied to
// `packages/<adapter>/node_modules/.ab-<n>` with its `@a2a/core` imports pointed there, and the agent is built
// with that core.
import { cpSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { alternateSlices, client, median, requestMaker, sliceKey } from './raw-socket-load.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const { values } = parseArgs({
  options: {
    adapter: { type: 'string', default: 'koa' },
    dist: { type: 'string', multiple: true },
    core: { type: 'string', multiple: true },
    scenarios: { type: 'string', default: 'raw,card,send,stream' },
    rounds: { type: 'string', default: '5' },
    requests: { type: 'string', default: '2000' },
    connections: { type: 'string', default: '16' },
    port: { type: 'string', default: '43480' },
    verbose: { type: 'boolean', default: false },
  },
});
const adapter = values.adapter;
const dists = values.dist?.length ? values.dist : [`packages/${adapter}/dist`];
const cores = values.core ?? [];
if (cores.length > 1 && cores.length !== dists.length) throw new Error('--core: once, or once per --dist');
const scenarios = values.scenarios.split(',');
const rounds = Number(values.rounds);
const perSlice = Number(values.requests);
const connections = Number(values.connections);
const bench = await import(pathToFileURL(resolve(root, 'apps/bench/dist/bench-a2a.js')).href);
const packageRequire = createRequire(resolve(root, `packages/${adapter}/package.json`));
const dependency = async (name) => {
  const module = await import(pathToFileURL(packageRequire.resolve(name)).href);
  return module.default ?? module;
};
/** A dependency of the adapter's package by its ESM entry (`exports['.'].import`). */
const esm = (name) => {
  const dir = resolve(root, `packages/${adapter}/node_modules`, name);
  const { exports } = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  const entry = exports['.'].import;
  return import(pathToFileURL(resolve(dir, typeof entry === 'string' ? entry : entry.default)).href);
};
const listen = (server, port) => new Promise((ok) => server.listen(port, '127.0.0.1', () => ok(server)));

/** One app of the framework with the raw echo and the adapter from `dist` (as apps/bench/src/servers/ mount it). */
const apps = {
  async koa(mod, port, a2a) {
    const Koa = await dependency('koa');
    const { bodyParser } = await import(pathToFileURL(packageRequire.resolve('@koa/bodyparser')).href);
    const { createServer } = await import('node:http');
    const app = new Koa();
    const parseJson = bodyParser();
    app.use(async (ctx, next) => {
      if (ctx.path === bench.RAW_PATH && ctx.method === 'POST') {
        return parseJson(ctx, async () => {
          ctx.body = bench.rawEcho(ctx.request.body);
        });
      }
      return next();
    });
    app.use(mod.a2aKoa(a2a));
    return listen(createServer(app.callback()), port);
  },
  async hapi(mod, port, a2a) {
    const Hapi = await dependency('@hapi/hapi');
    const server = Hapi.server({ autoListen: false });
    server.route({ method: 'POST', path: bench.RAW_PATH, handler: (request) => bench.rawEcho(request.payload) });
    await server.register({ plugin: mod.a2aHapi, options: { handler: a2a } });
    await server.start();
    return listen(server.listener, port);
  },
  async express(mod, port, a2a) {
    const express = await dependency('express');
    const { createServer } = await import('node:http');
    const app = express();
    app.disable('x-powered-by');
    app.post(bench.RAW_PATH, express.json(), (req, res) => res.json(bench.rawEcho(req.body)));
    app.use(mod.a2aExpress(a2a));
    return listen(createServer(app), port);
  },
  async nestjs(mod, port, a2a) {
    await dependency('reflect-metadata');
    const { Body, Controller, HttpCode, Module, Post } = await dependency('@nestjs/common');
    const { NestFactory } = await dependency('@nestjs/core');
    class RawController {
      echo(body) {
        return bench.rawEcho(body);
      }
    }
    const echo = Object.getOwnPropertyDescriptor(RawController.prototype, 'echo');
    Post(bench.RAW_PATH)(RawController.prototype, 'echo', echo);
    HttpCode(200)(RawController.prototype, 'echo', echo);
    Body()(RawController.prototype, 'echo', 0);
    Controller()(RawController);
    class BenchModule {}
    Module({ imports: [mod.A2AModule.forRoot({ handler: a2a })], controllers: [RawController] })(BenchModule);
    const app = await NestFactory.create(BenchModule, { logger: false });
    await app.init();
    return listen(app.getHttpServer(), port);
  },
  async fastify(mod, port, a2a) {
    const Fastify = await dependency('fastify');
    const app = Fastify();
    app.post(bench.RAW_PATH, async (request) => bench.rawEcho(request.body));
    await app.register(mod.a2aFastify, { handler: a2a });
    await app.ready();
    return listen(app.server, port);
  },
  async hono(mod, port, a2a, dir) {
    // Their ESM entries, as the adapter's own imports (`hono/route`) resolve: one Hono, not its CJS copy beside it.
    const { Hono } = await esm('hono');
    const { createAdaptorServer } = await esm('@hono/node-server');
    const { withA2ARequestErrors } = await import(pathToFileURL(resolve(dir, 'node-server.js')).href);
    const app = new Hono();
    app.post(bench.RAW_PATH, async (c) => c.json(bench.rawEcho(await c.req.json())));
    app.route('/', mod.a2aHono(a2a));
    return listen(createAdaptorServer(withA2ARequestErrors({ fetch: app.fetch })), port);
  },
};

/** Core's ESM entry files by their package specifiers (`@a2a/core` → `./dist/index.js`, ...). */
const coreExports = JSON.parse(readFileSync(resolve(root, 'packages/core/package.json'), 'utf8')).exports;
const coreEntry = (specifier) => coreExports[`.${specifier.slice('@a2a/core'.length)}`].import.default;

/** `dist` with its `@a2a/core` imports pointed at the core dist `core`, as `packages/<adapter>/node_modules/.ab-<i>`. */
function onCore(dist, core, i) {
  const dir = resolve(root, `packages/${adapter}/node_modules/.ab-${i}`);
  rmSync(dir, { recursive: true, force: true });
  cpSync(resolve(root, dist), dir, { recursive: true });
  const walk = (d) => {
    for (const name of readdirSync(d)) {
      const file = join(d, name);
      if (statSync(file).isDirectory()) {
        if (name !== 'cjs') walk(file);
      } else if (name.endsWith('.js')) {
        const text = readFileSync(file, 'utf8').replace(/(["'])(@a2a\/core(?:\/[a-z-]+)?)\1/g, (_, q, specifier) => {
          const target = resolve(root, core, relative('./dist', coreEntry(specifier)));
          return `${q}${pathToFileURL(target).href}${q}`;
        });
        writeFileSync(file, text);
      }
    }
  };
  walk(dir);
  return dir;
}

/** The bench's echo agent on the core dist `core` (as apps/bench/src/bench-a2a.ts builds it). */
async function benchA2A(core) {
  if (!core) return bench.createBenchA2A();
  const { benchCard, echoExecutor } = await import(pathToFileURL(resolve(root, 'apps/bench/dist/echo-agent.js')).href);
  const { createA2AHandler, InMemoryTaskStore } = await import(pathToFileURL(resolve(root, core, 'index.js')).href);
  return createA2AHandler({
    agentCard: benchCard,
    executor: echoExecutor,
    taskStore: new InMemoryTaskStore(),
    routes: { jsonRpc: bench.JSONRPC_PATH, rest: false },
  });
}

const requestBytes = requestMaker({
  rawPath: bench.RAW_PATH,
  cardPath: bench.CARD_PATH,
  jsonrpcPath: bench.JSONRPC_PATH,
  prefix: 'ap',
});

const servers = [];
for (const [i, given] of dists.entries()) {
  const core = cores[cores.length === 1 ? 0 : i];
  const dir = core ? onCore(given, core, i) : resolve(root, given);
  const mod = await import(pathToFileURL(resolve(dir, 'index.js')).href);
  const port = Number(values.port) + i;
  const server = await apps[adapter](mod, port, await benchA2A(core), dir);
  server.keepAliveTimeout = 0; // idle while the other variants run their slices: keep the connections
  servers.push({ dist: core ? `${given} on ${core}` : given, port, server });
}
const pools = servers.map((s) => Array.from({ length: connections }, () => client(s.port)));
const cpu = await alternateSlices({
  servers,
  pools,
  scenarios,
  rounds,
  perSlice,
  requestBytes,
  verbose: values.verbose,
});
console.log(
  `${adapter}, node ${process.version}, ${rounds} rounds × ${perSlice} requests per slice, ${connections} connections`,
);
console.log('scenario\tdist\tCPU µs/req (median; min–max)\t× raw by CPU');
for (const scenario of scenarios) {
  for (const s of servers) {
    const list = cpu.get(sliceKey(s, scenario));
    const raw = cpu.get(sliceKey(s, 'raw'));
    const ratio = raw ? (median(raw) / median(list)).toFixed(3) : '';
    console.log(
      `${scenario}\t${s.dist}\t${median(list).toFixed(1)} (${Math.min(...list).toFixed(1)}–${Math.max(...list).toFixed(1)})\t${ratio}`,
    );
  }
}
for (const pool of pools) for (const c of pool) c.close();
for (const s of servers) s.server.close();
process.exit(0);
