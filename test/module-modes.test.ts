// The packed packages as users get them, in every TypeScript module setting users have: CommonJS with
// `module: commonjs` (node10 resolution), node16 and nodenext in CommonJS and ESM packages, and `bundler`. Each
// mode type-checks the same tiny consumer with `tsc` (strict), then runs what tsc emitted with Node (`require()` for
// the CommonJS ones), which answers a real agent-card request through core and the Express adapter.
// One npm install of the tarballs into a temp dir serves every mode (each mode is a sub-project inside it).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, hasDatabase } from '../packages/postgres/test/db.js';
import { npmEnv, packPackages, ROOT } from '../scripts/pack-packages.mjs';

const TSC = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
const DUAL = ['core', 'express', 'koa', 'hapi', 'webhook-receiver', 'postgres', 'client', 'sdk-compat'];

// Every published entry point, imported by name (a missing or wrongly typed export fails tsc).
const CONSUMER = `import { createA2AHandler, type AgentExecutor } from '@a2a/core';
import { createNodeHandler } from '@a2a/core/node';
import { AgentCardSchema } from '@a2a/core/schemas';
import { OPERATIONS } from '@a2a/core/internal';
import { carryRefusal } from '@a2a/core/adapter';
import { A2AError } from '@a2a/core/errors';
import { a2aExpress } from '@a2a/express';
import { a2aKoa } from '@a2a/koa';
import { a2aHapi } from '@a2a/hapi';
import { createWebhookReceiver } from '@a2a/webhook-receiver';
import { PostgresTaskStore } from '@a2a/postgres';
import { A2AClient } from '@a2a/client';
import { fromSdkExecutor } from '@a2a/sdk-compat';
import { jsonRpcHandler, UserBuilder } from '@a2a/sdk-compat/express';
import { fromSdkV03Executor } from '@a2a/sdk-compat/v0.3';
import { A2AExpressApp } from '@a2a/sdk-compat/v0.3/express';

const executor: AgentExecutor = { execute: (ctx) => ctx.reply('hi') };
const a2a = createA2AHandler({
  agentCard: {
    name: 'Module mode agent',
    description: 'answers',
    version: '1.0.0',
    skills: [{ id: 'echo', name: 'Echo', description: 'echoes', tags: ['echo'] }],
  },
  executor,
});
const kinds = [createNodeHandler, AgentCardSchema.parse, a2aExpress, a2aKoa, createWebhookReceiver, PostgresTaskStore].map(
  (f) => typeof f,
);
const compat = [fromSdkExecutor, jsonRpcHandler, UserBuilder.noAuthentication, fromSdkV03Executor, A2AExpressApp].map(
  (f) => typeof f,
);
const operations =
  Object.keys(OPERATIONS).length > 0 && typeof carryRefusal === 'function' && new A2AError('TaskNotFound', 'x').code === -32001;
async function main(): Promise<void> {
  const response = await a2a.handle(new Request('http://127.0.0.1/.well-known/agent-card.json'));
  if (!response) throw new Error('no card route');
  const card = (await response.json()) as { name: string };
  const express = a2aExpress(a2a);
  // The client, its requests answered by the same handler in-process.
  const client = await A2AClient.connect('http://127.0.0.1', { fetch: (input, init) => a2a.fetch(new Request(input, init)) });
  const sent = await client.sendMessage({ message: { messageId: 'm1', role: 'ROLE_USER', parts: [{ text: 'hi' }] } });
  const reply = 'message' in sent ? sent.message.parts : [];
  console.log(JSON.stringify({ card: card.name, kinds, compat, operations, hapi: typeof a2aHapi.register, express: express.length, reply }));
}
void main();
`;

interface Mode {
  name: string;
  type: 'commonjs' | 'module';
  compilerOptions: Record<string, string>;
}

const MODES: Mode[] = [
  { name: 'commonjs-node10', type: 'commonjs', compilerOptions: { module: 'commonjs', moduleResolution: 'node10' } },
  { name: 'node16-cjs', type: 'commonjs', compilerOptions: { module: 'node16', moduleResolution: 'node16' } },
  { name: 'nodenext-cjs', type: 'commonjs', compilerOptions: { module: 'nodenext', moduleResolution: 'nodenext' } },
  { name: 'node16-esm', type: 'module', compilerOptions: { module: 'node16', moduleResolution: 'node16' } },
  { name: 'nodenext-esm', type: 'module', compilerOptions: { module: 'nodenext', moduleResolution: 'nodenext' } },
  { name: 'bundler', type: 'module', compilerOptions: { module: 'preserve', moduleResolution: 'bundler' } },
];

let work: string;

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'a2a-module-modes-'));
  const tarballs = packPackages(join(work, 'tarballs'), DUAL);
  writeFileSync(join(work, 'package.json'), JSON.stringify({ name: 'module-modes', private: true }));
  // Peers (express, koa, @hapi/hapi) come with npm's automatic peer install; types are what a TS user adds.
  execFileSync(
    'npm',
    [
      'install',
      '--no-audit',
      '--no-fund',
      '--loglevel=error',
      ...Object.values(tarballs),
      '@types/node@20',
      '@types/express@5',
      '@types/koa@3',
      '@a2a-js/sdk@1.3.0', // @a2a/sdk-compat's optional peer
    ],
    { cwd: work, env: npmEnv(), stdio: ['ignore', 'pipe', 'pipe'] },
  );
}, 600_000); // a liveness bound: packing and one npm install on a slow, loaded machine

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('packed packages in every TypeScript module mode', () => {
  it.each(MODES)(
    '$name: tsc --strict passes and the emitted code runs',
    ({ name, type, compilerOptions }) => {
      const dir = join(work, name);
      mkdirSync(dir);
      writeFileSync(join(dir, 'package.json'), JSON.stringify({ type }));
      writeFileSync(join(dir, 'index.ts'), CONSUMER);
      const tsconfig = {
        compilerOptions: {
          ...compilerOptions,
          target: 'es2022',
          lib: ['es2022', 'dom'],
          strict: true,
          esModuleInterop: true,
          skipLibCheck: true,
          types: ['node'],
          outDir: 'out',
        },
        files: ['index.ts'],
      };
      writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify(tsconfig));
      try {
        execFileSync(process.execPath, [TSC, '-p', dir], { cwd: dir, encoding: 'utf8' });
      } catch (error) {
        throw new Error(`tsc failed in ${name}:\n${(error as { stdout?: string }).stdout}`);
      }
      const out = execFileSync(process.execPath, [join(dir, 'out', 'index.js')], { cwd: dir, encoding: 'utf8' });
      expect(JSON.parse(out)).toEqual({
        card: 'Module mode agent',
        kinds: ['function', 'function', 'function', 'function', 'function', 'function'],
        compat: ['function', 'function', 'function', 'function', 'function'],
        operations: true,
        hapi: 'function',
        express: 2,
        reply: [{ text: 'hi' }],
      });
    },
    60_000,
  ); // one strict tsc over eight packages' types: ~15 s alone, more on a busy machine

  // Regression: CommonJS declarations imported types of packages whose declarations are ES modules only (@a2a-js/sdk,
  // jose) without saying so: TS1541/TS1479/TS1542 for a node16 CommonJS project that checks library types.
  it('node16 CommonJS with skipLibCheck off: every declaration of ours type-checks', () => {
    const dir = join(work, 'node16-cjs-libcheck');
    mkdirSync(dir);
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ type: 'commonjs' }));
    const entries = [
      'core',
      'core/node',
      'core/adapter',
      'core/errors',
      'core/error-shapes',
      'core/internal',
      ...DUAL.slice(1),
    ];
    const entryFiles = [
      ...entries.map((entry) => `@a2a/${entry}`),
      '@a2a/sdk-compat/express',
      '@a2a/sdk-compat/v0.3',
      '@a2a/sdk-compat/v0.3/express',
    ];
    writeFileSync(
      join(dir, 'index.ts'),
      entryFiles.map((e, i) => `import * as m${i} from '${e}';\nvoid m${i};`).join('\n'),
    );
    const compilerOptions = { module: 'node16', moduleResolution: 'node16', strict: true, skipLibCheck: false };
    const tsconfig = { compilerOptions: { ...compilerOptions, noEmit: true, types: ['node'] }, files: ['index.ts'] };
    writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify(tsconfig));
    let out = '';
    try {
      execFileSync(process.execPath, [TSC, '-p', dir], { cwd: dir, encoding: 'utf8' });
    } catch (error) {
      out = (error as { stdout?: string }).stdout ?? String(error);
    }
    // Only our own declarations are judged here (a framework's types may have their own trouble).
    expect(out.split('\n').filter((line) => line.includes('node_modules/@a2a/'))).toEqual([]);
  }, 60_000);

  it('every installed package carries its LICENSE', () => {
    for (const dir of DUAL) expect(existsSync(join(work, 'node_modules', '@a2a', dir, 'LICENSE'))).toBe(true);
  });

  it('plain require() from JavaScript loads every package', () => {
    const code = `for (const p of ${JSON.stringify(['@a2a/core', '@a2a/core/node', '@a2a/core/schemas', '@a2a/core/adapter', '@a2a/core/errors', '@a2a/core/error-shapes', '@a2a/core/internal', ...DUAL.slice(1).map((d) => `@a2a/${d}`)])}) require(p); console.log('ok')`;
    expect(execFileSync(process.execPath, ['-e', code], { cwd: work, encoding: 'utf8' }).trim()).toBe('ok');
  });

  // Regression: the receiver's CommonJS build required jose (ES modules only) at load, and core's lazy import of it
  // was compiled to require(): both fail where Node has no require(esm).
  // (Not @a2a/sdk-compat: the CommonJS build of @a2a-js/sdk, which it loads, requires jose itself.)
  it('CommonJS without require(esm) loads every package, and signs and verifies with jose at first use', () => {
    const code = `for (const p of ${JSON.stringify(DUAL.filter((d) => d !== 'sdk-compat').map((d) => `@a2a/${d}`))}) require(p);
      const { generatePushSigningKey, PushSigner } = require('@a2a/core');
      const { createWebhookReceiver } = require('@a2a/webhook-receiver');
      (async () => {
        const key = await generatePushSigningKey('k1');
        const signer = new PushSigner({ issuer: 'https://agent.example', keys: [key] });
        const hook = 'https://hooks.example/a2a';
        const receiver = createWebhookReceiver({ jwt: { jwks: await signer.jwks(), issuer: 'https://agent.example', audience: hook } });
        const body = new TextEncoder().encode(JSON.stringify({ statusUpdate: { taskId: 't1', contextId: 'c1', status: { state: 'TASK_STATE_WORKING' } } }));
        const jwt = await signer.sign({ body, audience: hook, jti: 'n1', taskId: 't1' });
        const headers = { 'content-type': 'application/json', 'a2a-notification-signature': jwt };
        const answer = await receiver.handler.fetch(new Request(hook, { method: 'POST', headers, body }));
        console.log(answer.status === 200 ? 'verified' : answer.status);
      })().catch((e) => console.log(e.code ?? e.message));`;
    const out = execFileSync(process.execPath, ['--no-experimental-require-module', '-e', code], {
      cwd: work,
      encoding: 'utf8',
    });
    expect(out.trim()).toBe('verified');
  });

  // Regression: dist/cjs/ looked for its SQL files one folder short (ENOENT …/dist/migrations/).
  it.skipIf(!hasDatabase)(
    '@a2a/postgres migrates a real database from require() and from import()',
    async () => {
      const start = `.then(async (s) => { await s.close(); console.log('migrated'); })`;
      const runs = [
        ['-e', `require('@a2a/postgres').createTaskStoreFromEnv()${start}`],
        [
          '--input-type=module',
          '-e',
          `import { createTaskStoreFromEnv } from '@a2a/postgres'; createTaskStoreFromEnv()${start}`,
        ],
      ];
      for (const args of runs) {
        const db = await createTestDatabase();
        try {
          const env = { ...process.env, A2A_DATABASE_URL: db.url };
          expect(execFileSync(process.execPath, args, { cwd: work, env, encoding: 'utf8' }).trim()).toBe('migrated');
        } finally {
          await db.drop();
        }
      }
    },
    60_000,
  );

  it('core, the adapters and the client start without loading jose (signing code loads at first use)', () => {
    expect(
      loads(['@a2a/core', '@a2a/core/node', '@a2a/express', '@a2a/koa', '@a2a/hapi', '@a2a/client'], 'jose'),
    ).toEqual({
      esm: 'loaded',
      cjs: '0',
    });
  });

  // Regression: the client took A2AError from core's root, which loads the engine and Zod (~95 modules).
  it('the client and @a2a/core/errors start without loading zod', () => {
    expect(loads(['@a2a/core/errors', '@a2a/client'], 'zod')).toEqual({ esm: 'loaded', cjs: '0' });
  });
});

/**
 * Imports (ESM, with a resolve hook that reports every module resolved inside the package) and requires (CommonJS,
 * counting `require.cache`) `entries` in fresh processes: `{ esm: 'loaded', cjs: '0' }` when `pkg` was never loaded.
 */
function loads(entries: string[], pkg: string): { esm: string; cjs: string } {
  const inside = `/node_modules/${pkg}/`;
  const hook = `data:text/javascript,export async function resolve(s, c, n) { const r = await n(s, c); if (r.url.includes('${inside}')) process.stdout.write('${pkg} '); return r; }`;
  const register = `data:text/javascript,import { register } from 'node:module'; register(${JSON.stringify(hook)});`;
  const esm = `for (const p of ${JSON.stringify(entries)}) await import(p); console.log('loaded')`;
  const cjs = `for (const p of ${JSON.stringify(entries)}) require(p);
    console.log(Object.keys(require.cache).filter((k) => k.includes('${inside}')).length)`;
  const run = (args: string[]) => execFileSync(process.execPath, args, { cwd: work, encoding: 'utf8' }).trim();
  return { esm: run(['--import', register, '--input-type=module', '-e', esm]), cjs: run(['-e', cjs]) };
}
