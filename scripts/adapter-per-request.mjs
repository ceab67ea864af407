#!/usr/bin/env node
// In-process A/B of a framework adapter's cost per request (docs/performance.md, "Per request (issue 39)", the
// slower frameworks). Like scripts/per-request.mjs, for @a2a/koa, @a2a/hapi, @a2a/express and @a2a/nestjs:
//
//   node --expose-gc scripts/adapter-per-request.mjs --adapter koa [--dist packages/koa/dist] [--dist <other dist>]
//        [--scenarios raw,card,send,stream] [--rounds 5] [--requests 2000] [--connections 16]
//
// Each `--dist` (a built adapter dist folder; default the checkout's) mounts the bench's echo agent
// (apps/bench/dist/bench-a2a.js, `pnpm --dir apps/bench build`) on its own app of that framework in this process,
// beside the bench's raw JSON echo route on the same app, the way apps/bench/src/servers/ does. A raw-socket client
// in the same process sends the bench's requests over keep-alive connections, closed loop, and rounds alternate the
// variants slice by slice. CPU per request: `process.cpuUsage()` over a slice / its requests (server and client
// together; compare variants, and each against its own raw echo, within one run).
// To compare a change with its baseline, copy the baseline's dist aside inside the package, so its dependencies still
// resolve (e.g. `cp -r packages/koa/dist packages/koa/node_modules/.base-dist`), rebuild, and pass both.
import { createRequire } from 'node:module';
import { dirname, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { alternateSlices, client, median, requestMaker, sliceKey } from './raw-socket-load.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const { values } = parseArgs({
  options: {
    adapter: { type: 'string', default: 'koa' },
    dist: { type: 'string', multiple: true },
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
const listen = (server, port) => new Promise((ok) => server.listen(port, '127.0.0.1', () => ok(server)));

/** One app of the framework with the raw echo and the adapter from `dist` (as apps/bench/src/servers/ mount it). */
const apps = {
  async koa(mod, port) {
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
    app.use(mod.a2aKoa(bench.createBenchA2A()));
    return listen(createServer(app.callback()), port);
  },
  async hapi(mod, port) {
    const Hapi = await dependency('@hapi/hapi');
    const server = Hapi.server({ autoListen: false });
    server.route({ method: 'POST', path: bench.RAW_PATH, handler: (request) => bench.rawEcho(request.payload) });
    await server.register({ plugin: mod.a2aHapi, options: { handler: bench.createBenchA2A() } });
    await server.start();
    return listen(server.listener, port);
  },
  async express(mod, port) {
    const express = await dependency('express');
    const { createServer } = await import('node:http');
    const app = express();
    app.disable('x-powered-by');
    app.post(bench.RAW_PATH, express.json(), (req, res) => res.json(bench.rawEcho(req.body)));
    app.use(mod.a2aExpress(bench.createBenchA2A()));
    return listen(createServer(app), port);
  },
  async nestjs(mod, port) {
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
    Module({ imports: [mod.A2AModule.forRoot({ handler: bench.createBenchA2A() })], controllers: [RawController] })(
      BenchModule,
    );
    const app = await NestFactory.create(BenchModule, { logger: false });
    await app.init();
    return listen(app.getHttpServer(), port);
  },
};

const requestBytes = requestMaker({
  rawPath: bench.RAW_PATH,
  cardPath: bench.CARD_PATH,
  jsonrpcPath: bench.JSONRPC_PATH,
  prefix: 'ap',
});

const servers = [];
for (const [i, dist] of dists.entries()) {
  const mod = await import(pathToFileURL(resolve(root, dist, 'index.js')).href);
  const port = Number(values.port) + i;
  const server = await apps[adapter](mod, port);
  server.keepAliveTimeout = 0; // idle while the other variants run their slices: keep the connections
  servers.push({ dist, port, server });
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
