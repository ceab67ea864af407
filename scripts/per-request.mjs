#!/usr/bin/env node
// In-process A/B of the server's cost per request (docs/performance.md, "Per request (issue 39)").
//
//   node --expose-gc --min-semi-space-size=64 --max-semi-space-size=64 scripts/per-request.mjs [--core packages/core/dist] [--core <other dist>]
//        [--scenarios raw,card,send,stream] [--rounds 7] [--requests 3000] [--connections 16] [--alloc 400]
//        [--heap-profile [--top 45] [--callers <name>]] [--verbose]
//
// Each `--core` (a built `@a2a/core` dist folder; default the checkout's) serves the bench's echo agent
// (apps/bench/dist/echo-agent.js, `pnpm --dir apps/bench build`) through its own Node bridge on a `node:http` server
// in this process, beside a raw JSON echo (the bench's `/raw/echo`). A raw-socket client in the same process sends the
// bench's exact request bodies over keep-alive connections, closed loop. Rounds alternate the variants slice by
// slice, so load from other jobs falls on all of them alike.
// - CPU per request: `process.cpuUsage()` over a slice / its requests (server and client together: the client is a few
//   µs, the same for every variant; compare variants, and A2A against raw, within one run).
// - Bytes allocated per request: heap growth over a GC-free window. A full GC first, then `--alloc` requests; with
//   a 64 MB semi-space the young generation holds the whole window, and a window that saw a GC (a `gc`
//   performance entry) is discarded. Counts what the server and the client allocate on the JS heap (not Buffers'
//   backing stores); the raw echo's figure is the floor the client and `node:http` account for.
// To compare a change with its baseline: copy the baseline's dist aside *inside the checkout*, so its dependencies
// still resolve (e.g. `cp -r packages/core/dist packages/core/node_modules/.base-dist`), rebuild, and pass both.
import { createServer } from 'node:http';
import { dirname, resolve } from 'node:path';
import { PerformanceObserver } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { alternateSlices, client, median, requestMaker, slice, sliceKey } from './raw-socket-load.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const { values } = parseArgs({
  options: {
    core: { type: 'string', multiple: true },
    scenarios: { type: 'string', default: 'raw,send,stream' },
    rounds: { type: 'string', default: '7' },
    requests: { type: 'string', default: '3000' },
    connections: { type: 'string', default: '16' },
    alloc: { type: 'string', default: '400' },
    port: { type: 'string', default: '43380' },
    // Each slice's figures on stderr as they come.
    verbose: { type: 'boolean', default: false },
    // Instead of the A/B: sample the allocations (collected ones too) of `--requests` requests of the first scenario
    // on the first core and print the top allocating functions (self bytes per request).
    'heap-profile': { type: 'boolean', default: false },
    // How many of the top allocating functions `--heap-profile` prints.
    top: { type: 'string', default: '45' },
    // With `--heap-profile`: also the call paths (last four frames) under which functions named so (a prefix of
    // `name url:line` as printed) allocate, e.g. `--callers 'Map :0'`.
    callers: { type: 'string' },
  },
});
const cores = values.core?.length ? values.core : ['packages/core/dist'];
const scenarios = values.scenarios.split(',');
const rounds = Number(values.rounds);
const perSlice = Number(values.requests);
const connections = Number(values.connections);
const allocWindow = Number(values.alloc);
const { benchCard: card, echoExecutor } = await import(
  pathToFileURL(resolve(root, 'apps/bench/dist/echo-agent.js')).href
);

async function serve(dist, port) {
  const core = await import(pathToFileURL(resolve(root, dist, 'index.js')).href);
  const node = await import(pathToFileURL(resolve(root, dist, 'node/index.js')).href);
  const a2a = node.createNodeHandler(
    core.createA2AHandler({
      agentCard: card,
      executor: echoExecutor,
      taskStore: new core.InMemoryTaskStore(),
      routes: { jsonRpc: '/a2a/jsonrpc', rest: false },
    }),
  );
  const server = createServer((req, res) => {
    if (req.url === '/raw/echo') {
      const chunks = [];
      req.on('data', (c) => chunks.push(c));
      req.on('end', () => {
        const b = JSON.parse(Buffer.concat(chunks).toString());
        res.setHeader('content-type', 'application/json');
        res.end(
          JSON.stringify({
            jsonrpc: '2.0',
            id: b?.id ?? null,
            result: { echo: b?.params?.message?.parts?.[0]?.text ?? '' },
          }),
        );
      });
      return;
    }
    void a2a(req, res);
  });
  server.keepAliveTimeout = 0; // idle while the other variants run their slices: keep the connections
  await new Promise((ok) => server.listen(port, '127.0.0.1', ok));
  return { dist, port, server };
}

const requestBytes = requestMaker({
  rawPath: '/raw/echo',
  cardPath: '/.well-known/agent-card.json',
  jsonrpcPath: '/a2a/jsonrpc',
  prefix: 'ip',
});

let gcs = 0;
new PerformanceObserver((list) => {
  gcs += list.getEntries().length;
}).observe({ entryTypes: ['gc'] });

const servers = [];
for (const [i, dist] of cores.entries()) servers.push(await serve(dist, Number(values.port) + i));
const pools = servers.map((s) => Array.from({ length: connections }, () => client(s.port)));
const alloc = new Map();

if (values['heap-profile']) {
  const { Session } = await import('node:inspector/promises');
  const session = new Session();
  session.connect();
  const [s] = servers;
  const [scenario] = scenarios;
  for (let i = 0; i < 3; i++) await slice(pools[0], requestBytes, scenario, s.port, perSlice);
  await session.post('HeapProfiler.enable');
  await session.post('HeapProfiler.startSampling', {
    samplingInterval: 256,
    includeObjectsCollectedByMajorGC: true,
    includeObjectsCollectedByMinorGC: true,
  });
  await slice(pools[0], requestBytes, scenario, s.port, perSlice);
  const { profile } = await session.post('HeapProfiler.stopSampling');
  const self = new Map();
  const callers = new Map();
  let total = 0;
  const walk = (node, stack) => {
    const f = node.callFrame;
    const where = `${f.functionName || '(anonymous)'} ${f.url.replace(/^.*\/(packages|node_modules|apps)\//, '$1/')}:${f.lineNumber + 1}`;
    const path = [...stack, where];
    if (node.selfSize) {
      total += node.selfSize;
      self.set(where, (self.get(where) ?? 0) + node.selfSize);
      if (values.callers && where.startsWith(values.callers)) {
        const k = path.slice(-4).join(' < ');
        callers.set(k, (callers.get(k) ?? 0) + node.selfSize);
      }
    }
    for (const child of node.children) walk(child, path);
  };
  walk(profile.head, []);
  console.log(`${scenario}: ~${Math.round(total / perSlice)} B sampled per request (server and client)`);
  for (const [where, bytes] of [...self].sort((a, b) => b[1] - a[1]).slice(0, Number(values.top)))
    console.log(`${String(Math.round(bytes / perSlice)).padStart(6)} B  ${where}`);
  for (const [k, bytes] of [...callers].sort((a, b) => b[1] - a[1]).slice(0, 12))
    console.log(`${String(Math.round(bytes / perSlice)).padStart(6)} B  ${k}`);
  for (const pool of pools) for (const c of pool) c.close();
  for (const x of servers) x.server.close();
  process.exit(0);
}
/** Bytes allocated per request over a window of `allocWindow` after a full GC; a window that saw a GC is dropped. */
async function allocationWindow(i, scenario) {
  if (!globalThis.gc || allocWindow <= 0) return;
  const s = servers[i];
  globalThis.gc();
  await new Promise((ok) => setTimeout(ok, 20)); // (gc entries are delivered asynchronously)
  const gcsBefore = gcs;
  const heap = process.memoryUsage().heapUsed;
  await slice(pools[i], requestBytes, scenario, s.port, allocWindow);
  const grown = process.memoryUsage().heapUsed - heap;
  await new Promise((ok) => setTimeout(ok, 20));
  if (values.verbose) console.error(scenario, 'GCs in window:', gcs - gcsBefore, 'heap grown:', grown);
  if (gcs === gcsBefore) {
    const a = alloc.get(sliceKey(s, scenario)) ?? [];
    a.push(grown / allocWindow);
    alloc.set(sliceKey(s, scenario), a);
  }
}
const cpu = await alternateSlices({
  servers,
  pools,
  scenarios,
  rounds,
  perSlice,
  requestBytes,
  verbose: values.verbose,
  afterSlice: allocationWindow,
});
console.log(`node ${process.version}, ${rounds} rounds × ${perSlice} requests per slice, ${connections} connections`);
console.log('scenario\tcore\tCPU µs/req (median; min–max)\tbytes/req (median of GC-free windows)\t× raw by CPU');
for (const scenario of scenarios) {
  for (const s of servers) {
    const list = cpu.get(sliceKey(s, scenario));
    const raw = cpu.get(sliceKey(s, 'raw'));
    const a = alloc.get(sliceKey(s, scenario)) ?? [];
    const ratio = raw ? (median(raw) / median(list)).toFixed(3) : '';
    console.log(
      `${scenario}\t${s.dist}\t${median(list).toFixed(1)} (${Math.min(...list).toFixed(1)}–${Math.max(...list).toFixed(1)})\t${a.length ? `${Math.round(median(a))} (${a.length} windows)` : 'n/a'}\t${ratio}`,
    );
  }
}
for (const pool of pools) for (const c of pool) c.close();
for (const s of servers) s.server.close();
