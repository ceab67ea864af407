// `node --expose-gc --max-semi-space-size=64 dist/compat-engine-bytes.js --scenario send [--windows 12]
// [--requests 300] [--baseline <dir>] [--heap-profile native|compat|baseline]`: bytes allocated per request on the
// engine alone (no HTTP), the native echo agent against the SDK-style one through @a2a/sdk-compat (and, with
// `--baseline`, through a copy of an earlier build, as compat-engine-ab.js's). Each window: a full GC, then `--requests`
// requests (32 in flight), the heap's growth ÷ requests; a window that saw a GC is dropped (a 64 MB semi-space holds a
// window). Variants alternate window by window; the median per variant is printed. `--heap-profile <variant>` instead
// samples that variant's allocations (collected ones too) and prints self bytes per request by package, then the top
// functions (an inlined function's allocations count as its caller's).
// Judge a compat change by these bytes first (docs/performance.md, "SDK executors through @a2a/sdk-compat").
import { Session } from 'node:inspector/promises';
import { PerformanceObserver } from 'node:perf_hooks';
import { numberArg, parseArgs } from './args.js';
import { type EngineHandler, engineRequest, engineVariants } from './compat-engine-variants.js';
import { median } from './stats.js';

const args = parseArgs(process.argv.slice(2));
const scenario = args.scenario ?? 'send';
if (scenario !== 'send' && scenario !== 'stream') throw new Error('--scenario must be send or stream');
const windows = numberArg(args, 'windows', 12);
const perWindow = numberArg(args, 'requests', 300);
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with node --expose-gc');

const { names, handlers } = await engineVariants(args.baseline);
const one = engineRequest(scenario, 'engine-bytes');

async function run(handler: EngineHandler, count: number): Promise<void> {
  let left = count;
  await Promise.all(
    Array.from({ length: 32 }, async () => {
      while (left-- > 0) await one(handler);
    }),
  );
}

let gcs = 0;
new PerformanceObserver((list) => {
  gcs += list.getEntries().length;
}).observe({ entryTypes: ['gc'] });
const settle = () => new Promise((ok) => setTimeout(ok, 20)); // (gc entries are delivered asynchronously)

for (const handler of handlers) await run(handler, 2000); // warm-up (and the tasks stores' first growth)

if (args['heap-profile']) {
  const i = names.indexOf(args['heap-profile']);
  if (i < 0) throw new Error(`--heap-profile must be one of ${names.join(', ')}`);
  const handler = handlers[i] as EngineHandler;
  const session = new Session();
  session.connect();
  await session.post('HeapProfiler.enable');
  await session.post('HeapProfiler.startSampling', {
    samplingInterval: 128,
    includeObjectsCollectedByMajorGC: true,
    includeObjectsCollectedByMinorGC: true,
  });
  const sampled = perWindow * windows;
  await run(handler, sampled);
  const { profile } = await session.post('HeapProfiler.stopSampling');
  const self = new Map<string, number>();
  const byPlace = new Map<string, number>();
  let total = 0;
  type Node = (typeof profile)['head'];
  const walk = (node: Node) => {
    const f = node.callFrame;
    const where = `${f.functionName || '(anonymous)'} ${f.url.replace(/^.*\/(packages|node_modules|apps)\//, '$1/')}:${f.lineNumber + 1}`;
    if (node.selfSize) {
      total += node.selfSize;
      self.set(where, (self.get(where) ?? 0) + node.selfSize);
      const place = /(packages\/[^/]+|node_modules\/(?:@[^/]+\/)?[^/]+|apps\/[^/]+)/.exec(f.url)?.[1] ?? '(node)';
      byPlace.set(place, (byPlace.get(place) ?? 0) + node.selfSize);
    }
    for (const child of node.children) walk(child);
  };
  walk(profile.head);
  console.log(`engine ${scenario} ${args['heap-profile']}: ~${Math.round(total / sampled)} B sampled per request`);
  const perRequest = (bytes: number) => Math.round(bytes / sampled);
  console.log([...byPlace].map(([place, bytes]) => `${place} ${perRequest(bytes)} B`).join(', '));
  for (const [where, bytes] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 40))
    console.log(`${String(perRequest(bytes)).padStart(6)} B  ${where}`);
  process.exit(0);
}

const bytes = names.map((): number[] => []);
for (let w = 0; w < windows; w++) {
  for (let j = 0; j < names.length; j++) {
    const k = (w + j) % names.length; // rotating, as compat-engine-ab.js
    gc();
    await settle();
    const before = gcs;
    const heap = process.memoryUsage().heapUsed;
    await run(handlers[k] as EngineHandler, perWindow);
    const grown = process.memoryUsage().heapUsed - heap;
    await settle();
    if (gcs === before) bytes[k]?.push(grown / perWindow);
  }
}
console.log(
  `engine ${scenario}: bytes per request, median of GC-free windows of ${perWindow}: ` +
    names
      .map((name, k) => `${name} ${Math.round(median(bytes[k] ?? []))} (${bytes[k]?.length ?? 0} windows)`)
      .join(', '),
);
