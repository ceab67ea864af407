// What the built package loads at start-up, and what waits for first use (docs/performance.md, "Footprint"): a fresh
// `node` imports @a2a/core and @a2a/core/node from dist/ (as users get them), and a load hook lists every file it
// loads. The bundled chunks name the sources they hold (`// src/...` lines), so the test sees which source modules
// were loaded, whichever chunk holds them. Also: every source module is in exactly one ESM file (so all entries
// share one A2AError class), and the CommonJS build loads the legacy wires lazily too.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const CORE = join(import.meta.dirname, '..');
const DIST = join(CORE, 'dist');

/** Source modules that load at first use only, each with the use that loads it. */
const ON_DEMAND = {
  legacyJsonRpc: [
    'compat/legacy-json-rpc.ts',
    'compat/legacy-methods.ts',
    'compat/legacy-call.ts',
    'compat/v03-methods.ts',
    'compat/v01-methods.ts',
    'compat/v01-task-ids.ts',
    'compat/v01-translate.ts',
  ],
  v03Rest: ['compat/v03-rest.ts', 'compat/v03-proto-json.ts', 'compat/v03-list-tasks.ts'],
  v02Card: ['compat/v02-extended-card.ts'],
  supersetCard: ['compat/v03-card.ts'],
  dialects: ['compat/dialects/make-dialects.ts', 'compat/dialects/sessions.ts', 'compat/dialects/paraphrase.ts'],
  signing: ['card/card-signing.ts', 'card/canonical-card.ts'],
};
/**
 * Packages that load at first use only: signing (jose, canonicalize), OpenTelemetry (at the first handler) and the
 * push SSRF guard's address parser (ipaddr.js, with the first push sender).
 */
// Zod, too, loads at first use only: the first refused request (for its field-named error) or `@a2a/core/schemas`.
const LAZY_PACKAGES = ['jose', 'canonicalize', '@opentelemetry/api', 'ipaddr.js'];

// The child: imports both entries, then uses one thing at a time, reporting what was loaded after each step.
const CHILD = `
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
const steps = {};
// What the ESM loader loaded (the hook's log), and what require() did (ipaddr.js loads that way).
const requireCache = createRequire(import.meta.url).cache;
const loaded = () => [...readFileSync(process.env.A2A_LOAD_LOG, 'utf8').split('\\n').filter(Boolean),
  ...Object.keys(requireCache).map((file) => pathToFileURL(file).href)];
const undici = () => process.moduleLoadList.some((m) => m.includes('undici'));
const step = (name) => { steps[name] = { files: loaded(), undici: undici() }; };
const core = await import('@a2a/core');
const node = await import('@a2a/core/node');
step('start');
const agentCard = { name: 'a', description: 'd', version: '1', skills: [{ id: 's', name: 's', description: 's', tags: ['s'] }] };
const executor = { execute: (ctx) => ctx.reply('hi') };
const a2a = core.createA2AHandler({ agentCard, executor });
step('handler');
// Through the Node bridge (node:http on both ends): the v1.0 card, then one valid SendMessage.
const http = await import('node:http');
const server = http.createServer(node.createNodeHandler(a2a));
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const call = (method, path, headers, body) => new Promise((resolve, reject) => {
  const req = http.request({ host: '127.0.0.1', port: server.address().port, method, path, headers }, (res) => {
    let text = '';
    res.setEncoding('utf8').on('data', (c) => { text += c; }).on('end', () => resolve({ status: res.statusCode, text }));
  });
  req.on('error', reject);
  req.end(body);
});
const nodeCard = await call('GET', '/.well-known/agent-card.json', { 'a2a-version': '1.0' });
if (nodeCard.status !== 200) throw new Error('card through the Node bridge failed');
const nodeSent = await call('POST', '/', { 'content-type': 'application/json' }, JSON.stringify({ jsonrpc: '2.0', id: 1,
  method: 'SendMessage', params: { message: { messageId: 'n1', role: 'ROLE_USER', parts: [{ text: 'hi' }], metadata: { a: 1 } } } }));
if (!nodeSent.text.includes('ROLE_AGENT')) throw new Error('SendMessage through the Node bridge failed');
server.close();
step('nodeBridge');
const rpc = (method, params, headers = {}) => a2a.fetch(new Request('http://a.test/', {
  method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) }));
const sent = await rpc('SendMessage', { message: { messageId: 'm1', role: 'ROLE_USER', parts: [{ text: 'hi' }] } });
if (!(await sent.text()).includes('ROLE_AGENT')) throw new Error('SendMessage failed');
const card = await a2a.fetch(new Request('http://a.test/.well-known/agent-card.json', { headers: { 'a2a-version': '1.0' } }));
if (card.status !== 200) throw new Error('card failed');
step('v1');
await a2a.fetch(new Request('http://a.test/.well-known/agent-card.json'));
step('supersetCard');
const refused = await rpc('SendMessage', { message: { messageId: 'm3', role: 'ROLE_NONE', parts: [{ text: 'hi' }] } });
if (!(await refused.text()).includes('message.role')) throw new Error('the refusal does not name message.role');
step('refusal');
const legacy = await rpc('message/send', { message: { messageId: 'm2', kind: 'message', role: 'user', parts: [{ kind: 'text', text: 'hi' }] } });
if (!(await legacy.text()).includes('"kind":"message"')) throw new Error('message/send failed');
step('legacyJsonRpc');
await a2a.fetch(new Request('http://a.test/v1/tasks/none'));
step('v03Rest');
const extended = core.createA2AHandler({ agentCard: { ...agentCard, capabilities: { extendedAgentCard: true } }, executor });
await extended.fetch(new Request('http://a.test/agent/authenticatedExtendedCard'));
step('v02Card');
const dialects = core.createA2AHandler({ agentCard, executor, dialects: ['sessions', 'paraphrase'] });
await dialects.fetch(new Request('http://a.test/card'));
await dialects.close();
step('dialects');
const key = await crypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, true, ['sign', 'verify']);
await core.signAgentCard(agentCard, [{ kid: 'k', privateKey: key.privateKey }]);
step('signing');
node.createNodePushSender();
step('pushSender');
const internal = await import('@a2a/core/internal');
const sameClass = internal.toA2AError(new core.A2AError('Internal', 'x')) instanceof core.A2AError;
// A refused card still throws at setup, synchronously, with Zod's field names (loaded then, synchronously).
let cardError;
try { core.createA2AHandler({ agentCard: { ...agentCard, skills: [{ id: 's', name: 's', tags: [] }] }, executor }); }
catch (e) { cardError = e.message; }
console.log(JSON.stringify({ steps, sameClass, cardError }));
`;

/**
 * Runs `code` in a fresh `node` from packages/core, where `@a2a/core` resolves to the package itself (its `exports`,
 * without the source condition), with a load hook that appends every loaded URL to `log` (synchronously, so the file
 * is complete whenever an import has resolved).
 */
function runLogged(code: string, log: string): { out: string; files: string[] } {
  writeFileSync(log, '');
  const hooks = `data:text/javascript,import { appendFileSync } from 'node:fs';
    export async function load(url, context, next) { appendFileSync(${JSON.stringify(log)}, url + '\\n'); return next(url, context); }`;
  const register = `data:text/javascript,import { register } from 'node:module'; register(${JSON.stringify(hooks)});`;
  const out = execFileSync(process.execPath, ['--import', register, '--input-type=module', '-e', code], {
    cwd: CORE,
    encoding: 'utf8',
    env: { ...process.env, A2A_LOAD_LOG: log },
  });
  return { out, files: readFileSync(log, 'utf8').split('\n').filter(Boolean) };
}

/** The source modules (from the chunks' `// src/...` lines) and the packages among the loaded files. */
function sourcesAndPackages(files: string[]): { sources: Set<string>; packages: Set<string> } {
  const sources = new Set<string>();
  const packages = new Set<string>();
  for (const url of files) {
    if (!url.startsWith('file:')) continue;
    const path = new URL(url).pathname;
    const pkg = /.*\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(path); // the last node_modules/ (pnpm nests)
    if (pkg) packages.add(pkg[1] as string);
    else if (path.startsWith(`${DIST}/`)) {
      for (const s of chunkSources(path)) sources.add(s);
      for (const p of chunkPackages(path)) packages.add(p); // bundled in (Zod)
    }
  }
  return { sources, packages };
}

/** Whether this Node loads undici for `node:http` and `node:https` alone, before any of our code. */
const nodeHttpLoadsUndici = (): boolean =>
  execFileSync(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      "await import('node:http'); await import('node:https'); console.log(process.moduleLoadList.some((m) => m.includes('undici')))",
    ],
    { encoding: 'utf8' },
  ).trim() === 'true';

const chunkSources = (file: string): string[] =>
  [...readFileSync(file, 'utf8').matchAll(/^\/\/ src\/(\S+\.ts)$/gm)].map((m) => m[1] as string);

/** The packages bundled into a chunk (Zod: scripts/bundle-esm.mjs), by its `// .../node_modules/<name>/` lines. */
const chunkPackages = (file: string): string[] =>
  [...readFileSync(file, 'utf8').matchAll(/^\/\/ \S*\/node_modules\/((?:@[^/]+\/)?[^/]+)\//gm)].map(
    (m) => m[1] as string,
  );

let work: string;
let report: {
  steps: Record<string, { files: string[]; undici: boolean }>;
  sameClass: boolean;
  cardError: string | undefined;
};
/** What importing `@a2a/core/internal` alone loads (the sibling packages' building blocks). */
let internalFiles: string[];

beforeAll(() => {
  // The package as packed (turbo-cached: about a second when nothing changed).
  execFileSync('npx', ['-y', 'pnpm@10.34.8', 'build', '--filter=./packages/core'], {
    cwd: join(CORE, '..', '..'),
    stdio: 'ignore',
    env: { ...process.env, TURBO_TELEMETRY_DISABLED: '1' },
  });
  work = mkdtempSync(join(tmpdir(), 'a2a-start-up-'));
  report = JSON.parse(runLogged(CHILD, join(work, 'loaded.log')).out.trim().split('\n').pop() as string);
  internalFiles = runLogged("await import('@a2a/core/internal');", join(work, 'internal.log')).files;
}, 120_000);

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('start-up of the built package', () => {
  it('imports neither the legacy wires, the dialects, card signing, jose nor OpenTelemetry, nor undici', () => {
    const { sources, packages } = sourcesAndPackages(report.steps.start?.files ?? []);
    expect(sources.has('handler/create-handler.ts')).toBe(true); // the test sees the chunks' sources
    expect(sources.has('node/node-web-request.ts')).toBe(true);
    for (const modules of Object.values(ON_DEMAND)) for (const m of modules) expect(sources).not.toContain(m);
    expect(packages).not.toContain('zod');
    for (const p of LAZY_PACKAGES) expect(packages).not.toContain(p);
    // Node 24's own `node:http` loads undici: nothing left for core to defer there (Node 20's does not).
    expect(report.steps.start?.undici).toBe(nodeHttpLoadsUndici());
  });

  it('loads no Zod (nor any schema module) to create a handler, serve the cards and accept a SendMessage', () => {
    const ZOD_SCHEMAS = ['schemas/proto-json.ts', 'schemas/requests.ts', 'schemas/agent-card.ts', 'schemas/message.ts'];
    for (const use of ['start', 'handler', 'nodeBridge', 'v1', 'supersetCard']) {
      const { sources, packages } = sourcesAndPackages(report.steps[use]?.files ?? []);
      expect({ use, zod: packages.has('zod') }).toEqual({ use, zod: false });
      for (const m of ZOD_SCHEMAS) expect(sources).not.toContain(m);
    }
    // The validators generated from the schemas did the checking.
    expect(sourcesAndPackages(report.steps.start?.files ?? []).sources).toContain('schemas/validators.generated.ts');
  });

  it('serves the card and a SendMessage through the Node bridge without naming Request, Headers or Response', () => {
    // On Node 20 naming one of them loads undici (~16 ms CPU), which a plain JSON request through the bridge's views
    // and lazy responses never needs (docs/performance.md, "Hot-path tricks", "Fetch classes named on demand").
    expect(report.steps.nodeBridge?.undici).toBe(nodeHttpLoadsUndici());
  });

  it('loads Zod and the schemas at the first refused request, for the field-named error', () => {
    const { sources, packages } = sourcesAndPackages(report.steps.refusal?.files ?? []);
    expect(packages).toContain('zod');
    expect(sources).toContain('schemas/requests.ts');
  });

  it('refuses a bad agent card at setup, synchronously, naming the field', () => {
    expect(report.cardError).toMatch(/^Invalid agent card: skills\.0\.tags: /);
  });

  it('serves v1.0 JSON-RPC and the v1.0 card without loading any of them', () => {
    const { sources, packages } = sourcesAndPackages(report.steps.v1?.files ?? []);
    for (const modules of Object.values(ON_DEMAND)) for (const m of modules) expect(sources).not.toContain(m);
    expect(packages).not.toContain('jose');
    expect(packages).not.toContain('canonicalize');
  });

  it.each(Object.keys(ON_DEMAND))('loads %s at its first use', (use) => {
    const { sources } = sourcesAndPackages(report.steps[use]?.files ?? []);
    for (const m of ON_DEMAND[use as keyof typeof ON_DEMAND]) expect(sources).toContain(m);
  });

  it('loads ipaddr.js with the first push sender, for its SSRF guard, and not before', () => {
    for (const use of ['start', 'handler', 'nodeBridge', 'v1', 'signing']) {
      const { packages } = sourcesAndPackages(report.steps[use]?.files ?? []);
      expect({ use, ipaddr: packages.has('ipaddr.js') }).toEqual({ use, ipaddr: false });
    }
    expect(sourcesAndPackages(report.steps.pushSender?.files ?? []).packages).toContain('ipaddr.js');
  });

  it('loads jose and canonicalize with the first signature', () => {
    const { packages } = sourcesAndPackages(report.steps.signing?.files ?? []);
    expect(packages).toContain('jose');
    expect(packages).toContain('canonicalize');
  });

  it('@a2a/core/internal alone loads neither the legacy wires nor card signing, jose or canonicalize', () => {
    const { sources, packages } = sourcesAndPackages(internalFiles);
    expect(sources.has('compat/v03-translate.ts')).toBe(true);
    const { legacyJsonRpc, v03Rest, v02Card, dialects, signing } = ON_DEMAND;
    for (const m of [...legacyJsonRpc.slice(0, 2), ...v03Rest, ...v02Card, ...dialects, ...signing]) {
      expect(sources).not.toContain(m);
    }
    for (const p of LAZY_PACKAGES) expect(packages).not.toContain(p);
  });

  // Both formats: the CommonJS build is bundled in the same chunks (scripts/bundle-esm.mjs). Regression: it was tsc's
  // per-module copy (151 files, ~670 kB, more than the ESM chunks), which doubled what an install carries.
  it.each(['ESM', 'CommonJS'])(
    'holds every source module in exactly one %s file, so the entries share their classes',
    (format) => {
      const holders = new Map<string, string[]>();
      const files: string[] = [];
      for (const entry of readdirSync(DIST, { recursive: true, withFileTypes: true })) {
        const file = join(entry.parentPath, entry.name);
        if (
          !entry.isFile() ||
          !file.endsWith('.js') ||
          relative(DIST, file).startsWith('cjs') !== (format === 'CommonJS')
        )
          continue;
        files.push(file);
        for (const source of new Set(chunkSources(file))) holders.set(source, [...(holders.get(source) ?? []), file]);
      }
      expect(holders.size).toBeGreaterThan(50);
      expect([...holders].filter(([, files]) => files.length > 1)).toEqual([]);
      expect(files.length).toBeLessThan(40); // entries and chunks, not a file per module
      expect(report.sameClass).toBe(true);
    },
  );

  it('CommonJS: requiring both entries loads no legacy wire, dialect or signing module, nor Zod, either', () => {
    const script = `require('@a2a/core'); require('@a2a/core/node');
      console.log(JSON.stringify(Object.keys(require.cache)))`;
    const cached: string[] = JSON.parse(
      execFileSync(process.execPath, ['-e', script], { cwd: CORE, encoding: 'utf8' }),
    );
    const sources = cached.filter((f) => f.startsWith(join(DIST, 'cjs'))).flatMap(chunkSources);
    expect(sources).toContain('handler/create-handler.ts');
    for (const modules of Object.values(ON_DEMAND)) for (const m of modules) expect(sources).not.toContain(m);
    expect(cached.some((f) => /node_modules\/(jose|canonicalize|zod)\//.test(f))).toBe(false);
    const bundled = cached.filter((f) => f.startsWith(join(DIST, 'cjs'))).flatMap(chunkPackages);
    expect(bundled).not.toContain('zod');
  });
});
