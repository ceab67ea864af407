import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { AgentContext } from '@a2a/core';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { numberArg, parseArgs } from '../src/args.js';
import { durableStoreFromEnv, startServer } from '../src/main.js';
import { chunkStamps, chunkText, parseChunkPlan, streamChunks } from '../src/paced-chunks.js';

describe('bench arguments', () => {
  it('reads --name value, --name=value and bare flags, ignoring a lone --', () => {
    expect(parseArgs(['--', '--adapter', 'koa', '--port=0', '--gc', '--host', '127.0.0.1'])).toEqual({
      adapter: 'koa',
      port: '0',
      gc: 'true',
      host: '127.0.0.1',
    });
  });

  it('numbers: the flag, else BENCH_<NAME>, else the default; a non-number is refused', () => {
    expect(numberArg({ port: '8080' }, 'port', 1)).toBe(8080);
    expect(numberArg({}, 'no-such-option', 7)).toBe(7);
    expect(() => numberArg({ port: 'eighty' }, 'port', 1)).toThrow(/--port must be a number/);
  });

  it('A2A_DATABASE_URL: none means the in-memory store; the sdk adapter refuses one', async () => {
    expect(await durableStoreFromEnv('koa', {})).toBeUndefined();
    await expect(durableStoreFromEnv('sdk', { A2A_DATABASE_URL: 'postgresql://x@127.0.0.1:1/x' })).rejects.toThrow(
      /sdk adapter has no durable store/,
    );
  });
});

describe('paced chunks agent', () => {
  it('parses bench-chunks-<count>-<intervalMs> and nothing else', () => {
    expect(parseChunkPlan('bench-chunks-100-100')).toEqual({ count: 100, intervalMs: 100 });
    expect(parseChunkPlan('bench-chunks-1-0')).toEqual({ count: 1, intervalMs: 0 });
    for (const id of ['bench-chunks-0-100', 'bench-chunks-100', 'bench-chunks--1-5', 'x-bench-chunks-1-1', 'hello']) {
      expect(parseChunkPlan(id)).toBeUndefined();
    }
    expect(parseChunkPlan('bench-chunks-100001-1')).toBeUndefined();
    expect(parseChunkPlan('bench-chunks-1-60001')).toBeUndefined();
  });

  it('chunk texts carry their scheduled and publish times', () => {
    expect(chunkStamps(chunkText(3, 1732420000100.25, 1732420000123.5))?.sent).toBe(1732420000123.5);
    expect(chunkStamps(chunkText(3, 1732420000100.25, 1732420000123.5))?.scheduled).toBe(1732420000100.25);
    // Also inside the JSON of a frame (how the scale client reads it).
    expect(chunkStamps(JSON.stringify({ text: chunkText(3, 1.5, 2.5) }))).toEqual({ scheduled: 1.5, sent: 2.5 });
    expect(chunkStamps('echo: hi')).toBeUndefined();
  });

  it('WORKING, the chunks on a fixed schedule (waits asked, not measured), then COMPLETED', async () => {
    const calls: string[] = [];
    const waits: number[] = [];
    const ctx = {
      signal: new AbortController().signal,
      working: async () => void calls.push('working'),
      artifact: async (chunk: { text: string; append: boolean; lastChunk: boolean }) => {
        calls.push(`${chunk.text.replace(/ s=.*/, '')} append=${chunk.append} last=${chunk.lastChunk}`);
        return 'chunks';
      },
      complete: async () => void calls.push('complete'),
    } as unknown as AgentContext;
    await streamChunks(ctx, { count: 3, intervalMs: 100 }, async (ms) => void waits.push(ms));
    expect(calls).toEqual([
      'working',
      'chunk 0 append=false last=false',
      'chunk 1 append=true last=false',
      'chunk 2 append=true last=true',
      'complete',
    ]);
    // Each wait aims at start + (i+1)·interval (this fake returns at once, so they read about 100, 200, 300 ms):
    // a slow write shortens the next wait instead of shifting every later chunk.
    expect(waits).toHaveLength(3);
    waits.forEach((ms, i) => {
      expect(ms).toBeLessThanOrEqual((i + 1) * 100);
      expect(ms).toBeGreaterThan(i * 100);
    });
  });

  it('stops when the task is canceled', async () => {
    const controller = new AbortController();
    let chunks = 0;
    const ctx = {
      signal: controller.signal,
      working: async () => {},
      artifact: async () => {
        if (++chunks === 2) controller.abort();
        return 'chunks';
      },
      complete: async () => {
        throw new Error('not after a cancel');
      },
    } as unknown as AgentContext;
    await streamChunks(ctx, { count: 10, intervalMs: 0 }, async () => {});
    expect(chunks).toBe(2);
  });
});

const databaseUrl = process.env.A2A_TEST_DATABASE_URL;

describe.runIf(databaseUrl)('bench server with A2A_DATABASE_URL', () => {
  it('keeps its tasks in PostgreSQL', async () => {
    const name = `a2a_bench_test_${crypto.randomUUID().replaceAll('-', '').slice(0, 12)}`;
    const admin = new pg.Client({ connectionString: databaseUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    const url = new URL(databaseUrl as string);
    url.pathname = `/${name}`;
    const durable = await durableStoreFromEnv('koa', { A2A_DATABASE_URL: url.toString() });
    let server: Server | undefined;
    try {
      server = await startServer('koa', 0, '127.0.0.1', { durable });
      const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const response = await fetch(`${base}/a2a/jsonrpc`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'a2a-version': '1.0' },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'SendMessage',
          params: { message: { messageId: crypto.randomUUID(), role: 'ROLE_USER', parts: [{ text: 'hi' }] } },
        }),
      });
      const { result } = (await response.json()) as { result: { task: { id: string } } };
      const pool = durable?.postgres?.pool as pg.Pool;
      const { rows } = await pool.query('SELECT state FROM a2a_tasks WHERE id = $1', [result.task.id]);
      expect(rows).toEqual([{ state: 'TASK_STATE_COMPLETED' }]);
    } finally {
      server?.closeAllConnections();
      server?.close();
      await durable?.close();
      await admin.query(`DROP DATABASE ${name} WITH (FORCE)`);
      await admin.end();
    }
  });
});
