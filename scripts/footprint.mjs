#!/usr/bin/env node
// Install size and cold-start cost of @a2a/core and every framework adapter as a user gets them (packed tarballs, npm
// install into a fresh project), next to the official SDK on Express. Figures go to docs/performance.md
// ("Footprint").
//   node scripts/footprint.mjs [--runs 15] [--sdk] [--root DIR] [--before DIR] [--first-request]
//   node scripts/footprint.mjs --install [--root DIR] [--before DIR]
// --install measures install size only (no cold starts): for each adapter a fresh project with core, the adapter and
// its framework, next to the framework alone and to @a2a-js/sdk 1.3.0 + express 5 (the SDK's Express server), each
// as `du` sees node_modules: apparent bytes (`du -sb`) and allocated on disk (`du -sB1`, what `du -sh` shows), with
// the packages ours bring (core, the adapter, core's dependencies) and the SDK's.
// For each adapter it reports what importing core + the adapter adds to importing its framework alone ("adds"), and
// for `@a2a/core/node` what it adds to a bare `node`: medians of CPU time (user + system of the child, which a busy
// machine disturbs less) and of wall time over `--runs` fresh processes each. The processes of all cases take turns
// (one of each, then again), so load from other jobs falls on every case alike. --sdk also measures @a2a-js/sdk 1.3.0
// on Express (its own install); --root packs another built checkout of this repo instead of this one; --before packs
// a second built checkout (e.g. main before a change) and measures it in the same turns, for a before/after table;
// --first-request also measures an Express app up to its first answer (see FIRST_REQUEST), with --sdk the SDK's too.
// A few minutes at --runs 15 (about twice that with --before).
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { npmEnv, packPackages } from './pack-packages.mjs';

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '15' },
    sdk: { type: 'boolean' },
    root: { type: 'string' },
    before: { type: 'string' },
    'first-request': { type: 'boolean' },
    install: { type: 'boolean' },
  },
});
const runs = Number(values.runs);

/**
 * Each adapter with what its app imports: the framework alone, and core + the adapter on top; `specs`: what npm
 * installs for the framework.
 */
const ADAPTERS = [
  { dir: 'express', framework: ['express'], adapter: ['@a2a/express'], specs: ['express@5'] },
  { dir: 'koa', framework: ['koa'], adapter: ['@a2a/koa'], specs: ['koa@3'] },
  { dir: 'hapi', framework: ['@hapi/hapi'], adapter: ['@a2a/hapi'], specs: ['@hapi/hapi@21'] },
  { dir: 'fastify', framework: ['fastify'], adapter: ['@a2a/fastify'], specs: ['fastify@5'] },
  {
    dir: 'hono',
    framework: ['hono', '@hono/node-server'],
    adapter: ['@a2a/hono', '@a2a/hono/node-server'],
    specs: ['hono@4', '@hono/node-server@2'],
  },
  {
    dir: 'nestjs',
    framework: ['reflect-metadata', '@nestjs/common', '@nestjs/core', '@nestjs/platform-express'],
    adapter: ['@a2a/nestjs'],
    specs: ['@nestjs/common@11', '@nestjs/core@11', '@nestjs/platform-express@11', 'reflect-metadata', 'rxjs'],
  },
];
/** Every adapter's framework, installed together for the cold-start cases. */
const FRAMEWORKS = ADAPTERS.flatMap((a) => a.specs);

function install(dir, specs) {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'footprint', private: true, type: 'module' }));
  execFileSync('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error', ...specs], {
    cwd: dir,
    env: npmEnv(),
  });
  const lock = JSON.parse(readFileSync(join(dir, 'package-lock.json'), 'utf8'));
  return Object.keys(lock.packages).filter((key) => key !== '').length;
}

/** Bytes under `path`: apparent (the files' lengths), or with `disk` allocated (whole blocks, what `du -sh` shows). */
const du = (path, disk = false) => {
  const out = spawnSync('du', [disk ? '-sB1' : '-sb', path], { encoding: 'utf8' });
  return out.status === 0 ? Number(out.stdout.split('\t')[0]) : 0;
};
const imports = (names) => names.map((name) => `await import(${JSON.stringify(name)});`).join(' ');

// --first-request: an Express app that starts, answers one JSON-RPC request from a node:http client in the same
// process, and exits; plain (a JSON route) and with the A2A handler (one SendMessage). What a cold start pays up to
// its first answer, including what core leaves for the first request (undici, the first validation).
const FIRST_REQUEST = `import http from 'node:http';
const post = (port, body) => new Promise((resolve, reject) => {
  const req = http.request({ port, method: 'POST', headers: { 'content-type': 'application/json', 'a2a-version': '1.0' } }, (res) => {
    let text = ''; res.on('data', (c) => (text += c)); res.on('end', () => resolve(text));
  });
  req.on('error', reject); req.end(JSON.stringify(body));
});
async function answerOnce(app, body, expected) {
  const server = app.listen(0); await new Promise((r) => server.once('listening', r));
  const text = await post(server.address().port, body); if (!text.includes(expected)) throw new Error(text);
  server.close();
}`;
const firstRequest = {
  plain: `${FIRST_REQUEST}
const { default: express } = await import('express');
const app = express(); app.use(express.json());
app.post('/', (req, res) => res.json({ jsonrpc: '2.0', id: req.body.id, result: {} }));
await answerOnce(app, { jsonrpc: '2.0', id: 1, method: 'x' }, 'result');`,
  a2a: `${FIRST_REQUEST}
const { createA2AHandler } = await import('@a2a/core'); const { a2aExpress } = await import('@a2a/express');
const { default: express } = await import('express');
const skills = [{ id: 's', name: 's', description: 's', tags: ['s'] }];
const a2a = createA2AHandler({ agentCard: { name: 'a', description: 'd', version: '1', skills }, executor: { execute: (ctx) => ctx.reply('hi') } });
const app = express(); app.use(express.json()); app.use(a2aExpress(a2a));
const message = { messageId: 'm', role: 'ROLE_USER', parts: [{ text: 'hi' }] };
await answerOnce(app, { jsonrpc: '2.0', id: 1, method: 'SendMessage', params: { message } }, 'ROLE_AGENT');`,
  // --sdk: the same with @a2a-js/sdk 1.3.0's JSON-RPC handler on Express (its card as its own server wants it whole).
  sdk: `${FIRST_REQUEST}
const { AgentEvent, DefaultRequestHandler, InMemoryTaskStore } = await import('@a2a-js/sdk/server');
const { jsonRpcHandler, UserBuilder } = await import('@a2a-js/sdk/server/express');
const { default: express } = await import('express');
const skills = [{ id: 's', name: 's', description: 's', tags: ['s'], examples: [], inputModes: [], outputModes: [], securityRequirements: [] }];
const card = { name: 'a', description: 'd', version: '1', documentationUrl: '',
  supportedInterfaces: [{ url: 'http://127.0.0.1/', protocolBinding: 'JSONRPC', tenant: '', protocolVersion: '1.0' }],
  capabilities: { streaming: false, pushNotifications: false, extensions: [], extendedAgentCard: false },
  securitySchemes: {}, securityRequirements: [], defaultInputModes: ['text/plain'], defaultOutputModes: ['text/plain'],
  skills, signatures: [] };
const part = { content: { $case: 'text', value: 'hi' }, mediaType: 'text/plain', filename: '', metadata: undefined };
const executor = {
  async execute(ctx, bus) {
    bus.publish(AgentEvent.message({ messageId: 'r', role: 2, contextId: ctx.contextId, taskId: '', parts: [part],
      metadata: undefined, extensions: [], referenceTaskIds: [] }));
    bus.finished?.();
  },
  async cancelTask() {},
};
const requestHandler = new DefaultRequestHandler(card, new InMemoryTaskStore(), executor);
const app = express(); app.use(jsonRpcHandler({ requestHandler, userBuilder: UserBuilder.noAuthentication }));
const message = { messageId: 'm', role: 'ROLE_USER', parts: [{ text: 'hi' }] };
await answerOnce(app, { jsonrpc: '2.0', id: 1, method: 'SendMessage', params: { message } }, 'ROLE_AGENT');`,
};

/**
 * Runs every case (`[name, dir, code]`) `runs` times (after one warm-up round), one process of each case in turn;
 * returns per case name the medians of wall time (ms) and of the process's own CPU time (user + system, ms).
 */
function coldStarts(cases) {
  const report = 'const u = process.cpuUsage(); console.log((u.user + u.system) / 1000);';
  const samples = Object.fromEntries(cases.map(([name]) => [name, { wall: [], cpu: [] }]));
  for (let i = 0; i <= runs; i++) {
    for (const [name, dir, code] of cases) {
      const t0 = process.hrtime.bigint();
      const out = spawnSync(process.execPath, ['--input-type=module', '-e', `${code}\n${report}`], {
        cwd: dir,
        encoding: 'utf8',
      });
      const ms = Number(process.hrtime.bigint() - t0) / 1e6;
      if (out.status !== 0) throw new Error(`${name}: ${out.stderr}`);
      if (i === 0) continue;
      samples[name].wall.push(ms);
      samples[name].cpu.push(Number(out.stdout.trim().split('\n').pop()));
    }
  }
  const median = (xs) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  return Object.fromEntries(
    Object.entries(samples).map(([name, s]) => [name, { wall: median(s.wall), cpu: median(s.cpu) }]),
  );
}

const mb = (n, digits = 1) => `${(n / 1e6).toFixed(digits)} MB`;
const ms = (n) => `${n.toFixed(0)} ms`;
const row = (cells) => `| ${cells.join(' | ')} |`;
const work = mkdtempSync(join(tmpdir(), 'a2a-footprint-'));

/**
 * --install: one fresh project per adapter (core + the adapter + its framework) and per framework alone, and the SDK's
 * on Express; prints their node_modules sizes, the ratio to the SDK's, and the packages behind the difference.
 */
function installSizes() {
  // This checkout (or --root) and, with --before, a second one, in the same run.
  const checkouts = [['after', values.root], ...(values.before ? [['before', values.before]] : [])];
  const packed = checkouts.map(([label, root]) => [
    label,
    packPackages(join(work, `tarballs-${label}`), ['core', ...ADAPTERS.map((a) => a.dir)], root),
  ]);
  const size = (dir) => ({ apparent: du(join(dir, 'node_modules')), disk: du(join(dir, 'node_modules'), true) });
  const both = (n, digits = 1) => `${mb(n.apparent, digits)} / ${mb(n.disk, digits)}`;
  const sdkDir = join(work, 'sdk');
  const sdkCount = install(sdkDir, ['@a2a-js/sdk@1.3.0', 'express@5']);
  const sdk = size(sdkDir);
  const ratio = (n) => `${(n.apparent / sdk.apparent).toFixed(2)}× / ${(n.disk / sdk.disk).toFixed(2)}×`;
  console.log(`install size (node_modules of a fresh npm project, apparent / on disk), npm ${npmVersion()}\n`);
  console.log(row(['', 'framework alone', 'with @a2a/core + the adapter', 'packages', 'vs @a2a-js/sdk + express']));
  console.log(row(Array(5).fill('---')));
  console.log(row(['@a2a-js/sdk 1.3.0 + express 5', '', both(sdk), String(sdkCount), '1×']));
  /** Per package (apparent / on disk) of one project: those named, each only if installed. */
  const breakdown = (dir, names) =>
    names
      .map((name) => [name, join(dir, 'node_modules', name)])
      .filter(([, path]) => du(path) > 0)
      .map(([name, path]) => `${name} ${both({ apparent: du(path), disk: du(path, true) }, 2)}`)
      .join(', ');
  const details = [];
  for (const { dir, specs } of ADAPTERS) {
    install(join(work, `${dir}-alone`), specs);
    const alone = size(join(work, `${dir}-alone`));
    for (const [label, tarballs] of packed) {
      const ours = join(work, `${dir}-${label}`);
      const count = install(ours, [tarballs['@a2a/core'], tarballs[`@a2a/${dir}`], ...specs]);
      const withUs = size(ours);
      const name = packed.length > 1 ? `${dir} (${label})` : dir;
      console.log(row([name, both(alone), both(withUs), String(count), ratio(withUs)]));
      const core = JSON.parse(readFileSync(join(ours, 'node_modules', '@a2a', 'core', 'package.json'), 'utf8'));
      const deps = ['@a2a/core', `@a2a/${dir}`, ...Object.keys({ ...core.dependencies, ...core.peerDependencies })];
      details.push(`${name}: ${breakdown(ours, deps)}`);
    }
  }
  const sdkPkg = JSON.parse(readFileSync(join(sdkDir, 'node_modules', '@a2a-js', 'sdk', 'package.json'), 'utf8'));
  console.log(`\nper package (apparent / on disk):\n${details.join('\n')}`);
  console.log(`sdk: ${breakdown(sdkDir, ['@a2a-js/sdk', ...Object.keys(sdkPkg.dependencies ?? {})])}`);
}
const npmVersion = () => execFileSync('npm', ['--version'], { encoding: 'utf8', env: npmEnv() }).trim();

try {
  if (values.install) installSizes();
  else {
    // One install per checkout: this one (or --root), and --before's.
    const checkouts = [['after', values.root], ...(values.before ? [['before', values.before]] : [])];
    const cases = [];
    for (const [label, root] of checkouts) {
      const tarballs = packPackages(join(work, `tarballs-${label}`), ['core', ...ADAPTERS.map((a) => a.dir)], root);
      const dir = join(work, label);
      const packages = install(dir, [...Object.values(tarballs), ...FRAMEWORKS]);
      const sizes = ['@a2a/core', 'zod', 'jose', 'lru.min', 'ipaddr.js', 'canonicalize']
        .map((name) => `${name} ${mb(du(join(dir, 'node_modules', name)))}`)
        .join(', ');
      const all = mb(du(join(dir, 'node_modules')));
      console.log(`${label}: core, 6 adapters and their frameworks: ${all}, ${packages} packages; of which ${sizes}`);
      cases.push([`${label} bare`, dir, ''], [`${label} node`, dir, imports(['@a2a/core/node'])]);
      if (values['first-request']) {
        cases.push([`${label} first plain`, dir, firstRequest.plain], [`${label} first a2a`, dir, firstRequest.a2a]);
      }
      for (const { dir: name, framework, adapter } of ADAPTERS) {
        cases.push([`${label} ${name} alone`, dir, imports(framework)]);
        cases.push([`${label} ${name}`, dir, imports(['@a2a/core', ...adapter, ...framework])]);
      }
    }
    if (values.sdk) {
      const dir = join(work, 'sdk');
      const packages = install(dir, ['@a2a-js/sdk@1.3.0', 'express@5']);
      console.log(`@a2a-js/sdk 1.3.0 + express 5: ${mb(du(join(dir, 'node_modules')))}, ${packages} packages`);
      cases.push(['sdk express alone', dir, imports(['express'])]);
      cases.push(['sdk', dir, imports(['@a2a-js/sdk/server', '@a2a-js/sdk/server/express', 'express'])]);
      if (values['first-request'])
        cases.push(['sdk first plain', dir, firstRequest.plain], ['sdk first', dir, firstRequest.sdk]);
    }
    const times = coldStarts(cases);
    const adds = (name, base) => ({
      cpu: times[name].cpu - times[base].cpu,
      wall: times[name].wall - times[base].wall,
    });
    const labels = checkouts.map(([label]) => label).reverse(); // before, after

    console.log(`\ncold import, medians of ${runs} fresh processes each, Node ${process.version}`);
    console.log(`bare node -e '': ${ms(times['after bare'].cpu)} CPU / ${ms(times['after bare'].wall)} wall\n`);
    const heads = labels.length > 1 ? labels.map((l) => ` (${l})`) : [''];
    console.log(
      row(['', 'framework alone, CPU', ...heads.map((h) => `adds CPU${h}`), ...heads.map((h) => `adds wall${h}`)]),
    );
    console.log(row(Array(2 + 2 * heads.length).fill('---')));
    const line = (title, alone, name, base) => {
      const added = labels.map((label) => adds(`${label} ${name}`, `${label} ${base}`));
      console.log(row([title, alone, ...added.map((a) => ms(a.cpu)), ...added.map((a) => ms(a.wall))]));
    };
    line('`@a2a/core/node` (vs bare node)', '', 'node', 'bare');
    for (const { dir } of ADAPTERS) line(dir, ms(times[`after ${dir} alone`].cpu), dir, `${dir} alone`);
    if (values['first-request']) {
      line('express, up to the first answer', ms(times['after first plain'].cpu), 'first a2a', 'first plain');
    }
    if (values.sdk) {
      const sdk = adds('sdk', 'sdk express alone');
      console.log(
        `\n@a2a-js/sdk 1.3.0 on express 5: adds ${ms(sdk.cpu)} CPU / ${ms(sdk.wall)} wall to express alone (${ms(times['sdk express alone'].cpu)} CPU)`,
      );
      if (values['first-request']) {
        const first = (name) => `${ms(times[name].cpu)} CPU / ${ms(times[name].wall)} wall`;
        console.log(
          `up to the first SendMessage answer: @a2a-js/sdk ${first('sdk first')}; ${labels
            .map((label) => `@a2a/express (${label}) ${first(`${label} first a2a`)}`)
            .join('; ')} (a plain JSON route: ${first('sdk first plain')})`,
        );
      }
    }
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
