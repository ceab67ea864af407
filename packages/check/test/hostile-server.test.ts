import type { Listening } from '@a2a/adapter-testsuite';
import { afterEach, describe, expect, it } from 'vitest';
import { createContext, forCheck } from '../src/context.js';
import { NoAnswer } from '../src/http.js';
import { checkAgent } from '../src/index.js';
import { galleryHandler } from './broken-agents.js';
import { type FetchHandler, serveFetch } from './fetch-server.js';

// The checker is a client of whatever it is pointed at: a hostile server must not hang it or fill its memory. Each
// run here ends with a report (bounded bodies, bounded time), whatever the server does.

/** A body that never ends: the same chunk, forever (until the client goes away). */
const endless = (chunk: string, contentType: string) =>
  new Response(
    new ReadableStream({
      pull(controller) {
        controller.enqueue(new TextEncoder().encode(chunk));
      },
    }),
    { headers: { 'content-type': contentType } },
  );

let agent: Listening | undefined;
afterEach(async () => {
  await agent?.close();
  agent = undefined;
});
const serve = async (handler: FetchHandler) => {
  agent = await serveFetch(handler);
  return agent.url;
};

describe('a hostile server', () => {
  it('a card that never ends: read up to 1 MiB, then "not JSON", exit code 2', async () => {
    const url = await serve(async () => endless('{"name":"x","pad":"'.padEnd(65_536, 'x'), 'application/json'));
    const report = await checkAgent(url, { timeoutMs: 5000 });
    expect(report.reachable).toBe(false);
    expect(report.unreachable).toMatch(/agent-card\.json answered 200 \(not JSON\)/);
  });

  it('a card that never comes: "no answer within 1 s", exit code 2', async () => {
    const url = await serve(async () => undefined);
    const report = await checkAgent(url, { timeoutMs: 1000 });
    expect(report).toMatchObject({ reachable: false, unreachable: expect.stringMatching(/no answer within 1 s$/) });
  });

  it('endless answers on every call after the card: each check fails on its own, the run ends', async () => {
    const a2a = galleryHandler();
    const url = await serve(async (request) =>
      new URL(request.url).pathname === '/.well-known/agent-card.json'
        ? a2a.fetch(request)
        : endless('data: {"jsonrpc":"2.0","id":1,"result":{}}\n\n', 'text/event-stream'),
    );
    const report = await checkAgent(url, { timeoutMs: 2000, send: 'hi', hostile: true });
    expect(report.reachable).toBe(true);
    const failed = report.results.filter((r) => r.status === 'fail').map((r) => r.id);
    expect(failed).toContain('jsonrpc.task-not-found.get');
    expect(failed).toContain('send.streaming');
    expect(report.results.find((r) => r.id === 'jsonrpc.task-not-found.get')?.detail).toMatch(
      /expected -32001 TaskNotFound, got a result/,
    );
  });

  it('a signature whose jku serves an endless JWKS: bounded, card.signature fails saying so', async () => {
    const a2a = galleryHandler();
    const url = await serve(async (request) => {
      const { origin, pathname } = new URL(request.url);
      if (pathname === '/jwks.json') return endless('{"keys":[', 'application/json');
      const response = await a2a.fetch(request);
      if (pathname !== '/.well-known/agent-card.json') return response;
      const header = Buffer.from(JSON.stringify({ alg: 'ES256', kid: 'k', jku: `${origin}/jwks.json` })).toString(
        'base64url',
      );
      const card = { ...((await response.json()) as object), signatures: [{ protected: header, signature: 'AAAA' }] };
      return Response.json(card);
    });
    const report = await checkAgent(url, { timeoutMs: 5000 });
    expect(report.results.find((r) => r.id === 'card.signature')).toMatchObject({
      status: 'fail',
      detail: expect.stringMatching(/^the JWKS at http:\/\/127\.0\.0\.1:\d+\/jwks\.json: HTTP 200 \{"keys":\[/),
    });
  });

  it('a card listing many hanging interfaces: the check is stopped after its budget and calls nothing more', async () => {
    let calls = 0;
    const hang = await serveFetch(async () => {
      calls++;
      return undefined;
    });
    try {
      const a2a = galleryHandler();
      for (let i = 0; i < 20; i++)
        a2a.addInterface({ url: `${hang.url}/${i}`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' });
      const url = await serve((request) => a2a.fetch(request));
      const report = await checkAgent(url, { timeoutMs: 200 });
      expect(report.results.find((r) => r.id === 'card.interfaces-reachable')).toMatchObject({
        status: 'fail',
        detail: 'no answer within 0.8 s',
      });
      // Four calls fit in the budget (a fifth may have started).
      expect(calls).toBeLessThanOrEqual(5);
    } finally {
      await hang.close();
    }
  });

  it("a stopped check's later calls fail at once and never reach the agent", async () => {
    let calls = 0;
    const url = await serve(async () => {
      calls++;
      return new Response('{}');
    });
    const found = { cardUrl: `${url}/card.json`, card: {}, answer: {} as never };
    const abort = new AbortController();
    const ctx = forCheck(createContext(found, [], {}), abort.signal);
    expect((await ctx.call(url, {})).status).toBe(200);
    abort.abort();
    await expect(ctx.call(url, {})).rejects.toThrow(new NoAnswer('stopped', true));
    expect(calls).toBe(1);
  });
});
