import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { type Agent, nodeMount, startAgent } from './agent.js';

// The client in Bun and Deno (binaries from .ci/.cache, as core's fetch-hosts tests use): skipped without them,
// except under CI, where a missing runtime is a failure.
const root = fileURLToPath(new URL('../../..', import.meta.url));
const fixture = fileURLToPath(new URL('./fixtures/client-host.ts', import.meta.url));
const runtimes = [
  { name: 'bun', bin: process.env.A2A_TEST_BUN ?? `${root}.ci/.cache/bun/bun`, args: ['run', fixture] },
  {
    name: 'deno',
    bin: process.env.A2A_TEST_DENO ?? `${root}.ci/.cache/deno/deno`,
    args: ['run', '--allow-net', '--allow-env', '--node-modules-dir=manual', '--unstable-sloppy-imports', fixture],
  },
];

let agent: Agent | undefined;
afterEach(async () => {
  await agent?.close();
  agent = undefined;
});

function runFixture(bin: string, args: string[], url: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(bin, [...args, url], {
      cwd: fileURLToPath(new URL('..', import.meta.url)), // packages/client: its node_modules resolve the imports
      env: { ...process.env, NO_COLOR: '1', DENO_NO_UPDATE_CHECK: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (c: Buffer) => {
      out += c.toString();
    });
    child.stderr.on('data', (c: Buffer) => {
      err += c.toString();
    });
    child.on('exit', (code) => {
      const line = out.split('\n').find((l) => l.startsWith('RESULT '));
      if (code === 0 && line) resolve(line.slice('RESULT '.length));
      else reject(new Error(`exited ${code}: ${out}\n${err}`));
    });
  });
}

for (const runtime of runtimes) {
  const present = existsSync(runtime.bin);
  describe.skipIf(!present && !process.env.CI)(`the client running on ${runtime.name}`, () => {
    it('connects, sends, streams, resumes a broken stream, aborts and reads typed errors over both bindings', async () => {
      if (!present) throw new Error(`${runtime.name} binary missing at ${runtime.bin} (.ci/run fetches it)`);
      // node:http with one extra route: `POST /gate/NAME` opens a gate of the scripted agent.
      let gates: Agent['gates'] | undefined;
      agent = await startAgent({}, (a2a, record) =>
        nodeMount(a2a, (req, res) => {
          const gate = /^\/gate\/(.+)$/.exec(req.url ?? '');
          if (!gate?.[1]) return record(req, res);
          gates?.get(gate[1]).resolve();
          res.end('open');
          return true;
        }),
      );
      gates = agent.gates;
      const results = JSON.parse(await runFixture(runtime.bin, runtime.args, agent.url));
      const expected = (binding: string) => ({
        binding,
        sent: 'TASK_STATE_COMPLETED',
        streamed: [
          'task TASK_STATE_SUBMITTED',
          'status TASK_STATE_WORKING',
          'artifact chunk 0',
          'artifact chunk 1',
          'status TASK_STATE_COMPLETED',
        ],
        resumed: [
          'task TASK_STATE_SUBMITTED',
          'status TASK_STATE_WORKING',
          'artifact chunk 0',
          'artifact chunk 1',
          'status TASK_STATE_COMPLETED',
        ],
        reconnects: 1,
        aborted: 'AbortError',
        missing: 'TaskNotFound',
      });
      expect(results).toEqual([expected('JSONRPC'), expected('HTTP+JSON')]);
    }, 30_000);
  });
}
