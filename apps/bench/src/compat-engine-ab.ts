// `node dist/compat-engine-ab.js --scenario stream [--slices 30] [--ms 500] [--baseline <dir>]`: the engine alone (the
// request handler called in one process, no HTTP), the native echo agent against the SDK-style one through
// @a2a/sdk-compat (and, with `--baseline`, through a copy of an earlier build, as compat-ab.js's), in rotating slices,
// 32 requests in flight; median process CPU per request. Without the sockets and the JSON its noise is a few percent, so
// a layer change of a microsecond shows here before it does in compat-ab.js (run it pinned: `taskset -c 1 node ...`).
import { numberArg, parseArgs } from './args.js';
import { type EngineHandler, engineRequest, engineVariants } from './compat-engine-variants.js';
import { median } from './stats.js';

const args = parseArgs(process.argv.slice(2));
const scenario = args.scenario ?? 'stream';
if (scenario !== 'send' && scenario !== 'stream') throw new Error('--scenario must be send or stream');
const slices = numberArg(args, 'slices', 30);
const ms = numberArg(args, 'ms', 500);

const { names, handlers } = await engineVariants(args.baseline);
const one = engineRequest(scenario, 'engine-ab');

/** CPU µs per request over one slice. */
async function slice(handler: EngineHandler): Promise<number> {
  const end = performance.now() + ms;
  let count = 0;
  const before = process.cpuUsage();
  await Promise.all(
    Array.from({ length: 32 }, async () => {
      while (performance.now() < end) {
        await one(handler);
        count++;
      }
    }),
  );
  const cpu = process.cpuUsage(before);
  return (cpu.user + cpu.system) / count;
}

for (const handler of handlers) await slice(handler); // warm-up
const cpu = names.map((): number[] => []);
for (let i = 0; i < slices; i++) {
  for (let j = 0; j < names.length; j++) {
    const k = (i + j) % names.length; // rotating: each variant first, second and last equally often
    cpu[k]?.push(await slice(handlers[k] as EngineHandler));
  }
}
const medians = cpu.map(median);
const of = (name: string) => medians[names.indexOf(name)] ?? NaN;
const slower = (a: string, b: string) => `${a} vs ${b} ${((of(a) / of(b) - 1) * 100).toFixed(1)} %`;
const versus = args.baseline
  ? [slower('compat', 'native'), slower('baseline', 'native'), slower('compat', 'baseline')]
  : [slower('compat', 'native')];
console.log(
  `engine ${scenario}: CPU µs per request, median of ${slices} slices: ` +
    `${names.map((name) => `${name} ${of(name).toFixed(2)}`).join(', ')}: ${versus.join(', ')}`,
);
