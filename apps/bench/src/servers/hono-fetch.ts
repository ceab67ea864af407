// The Hono bench server on a Fetch-native runtime: `bun dist/servers/hono-fetch.js --port <n>` or
// `deno run -A --node-modules-dir=manual dist/servers/hono-fetch.js --port <n>`. The same app as servers/hono.ts
// (raw JSON route, @a2a/hono mounted as a user would) on the runtime's own server (`Bun.serve`, `Deno.serve`), so
// `hono-bun` and `hono-deno` rows compare the adapter with raw Hono on the same host. Prints the READY line run.ts
// waits for. Nothing here may import `node:` modules or main.ts (gRPC, PostgreSQL).
import { a2aHono } from '@a2a/hono';
import { Hono } from 'hono';
import { parseArgs } from '../args.js';
import { createBenchA2A, MEM_PATH, RAW_PATH, rawEcho } from '../bench-a2a.js';

interface Runtimes {
  Bun?: { serve(options: object): { port: number } };
  Deno?: {
    pid: number;
    args: string[];
    serve(options: object, handler: (request: Request) => Response | Promise<Response>): unknown;
  };
  process?: { pid: number; argv: string[] };
}
const runtime = globalThis as Runtimes;
const argv = runtime.Deno ? runtime.Deno.args : (runtime.process?.argv.slice(2) ?? []);
const args = parseArgs(argv);
const host = args.host ?? '127.0.0.1';
const port = Number(args.port ?? 41377);

const app = new Hono();
app.post(RAW_PATH, async (c) => c.json(rawEcho(await c.req.json())));
// Heap figures are Node's (`process.memoryUsage`): not comparable here, so the memory scenarios skip these hosts.
app.get(MEM_PATH, (c) => c.json({ unavailable: true }));
app.route('/', a2aHono(createBenchA2A()));

const ready = (name: string, bound: number, pid: number) =>
  console.log(`READY http://${host}:${bound} pid=${pid} adapter=hono-${name}`);
if (runtime.Bun) {
  const server = runtime.Bun.serve({ hostname: host, port, fetch: app.fetch });
  ready('bun', server.port, runtime.process?.pid ?? 0);
} else if (runtime.Deno) {
  const deno = runtime.Deno;
  deno.serve(
    { hostname: host, port, onListen: ({ port: bound }: { port: number }) => ready('deno', bound, deno.pid) },
    app.fetch,
  );
} else {
  throw new Error('run me with bun or deno (servers/hono.ts is the Node one)');
}
