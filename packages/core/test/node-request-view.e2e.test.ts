import { request as httpRequest, type IncomingMessage } from 'node:http';
import { type Listening, listen } from '@a2a/adapter-testsuite';
import { afterEach, describe, expect, it } from 'vitest';
import { requestDisconnect } from '../src/http/prepared.js';
import { createNodeHandler } from '../src/node/index.js';

// The Node bridge's fast path hands handlers a Request view; a handler using the full Request API must not notice.
let server: Listening | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function serve(handle: (request: Request) => Promise<Response>): Promise<string> {
  server = await listen(createNodeHandler({ handle: (request) => handle(request) }));
  return server.url;
}

describe('Node bridge request view', () => {
  it('reads as a normal Request: instanceof, url, headers, json(), clone()', async () => {
    const base = await serve(async (request) => {
      const copy = request.clone();
      return Response.json({
        isRequest: request instanceof Request,
        url: request.url,
        method: request.method,
        custom: request.headers.get('x-custom'),
        body: await request.json(),
        again: await copy.text(),
        aborted: request.signal.aborted,
        mode: request.mode,
      });
    });
    const answer = await fetch(`${base}/some/path?q=1`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-custom': 'yes' },
      body: JSON.stringify({ hello: 'world' }),
    });
    expect(await answer.json()).toEqual({
      isRequest: true,
      url: `${base}/some/path?q=1`,
      method: 'POST',
      custom: 'yes',
      body: { hello: 'world' },
      again: '{"hello":"world"}',
      aborted: false,
      mode: 'cors',
    });
  });

  it('lets go of the body once read: no listener keeps its bytes for the rest of the request', async () => {
    let req: IncomingMessage | undefined;
    const handler = createNodeHandler({
      handle: async (request) => {
        const text = await request.text();
        return Response.json({ text, data: req?.listenerCount('data'), end: req?.listenerCount('end') });
      },
    });
    server = await listen((incoming, res) => {
      req = incoming;
      void handler(incoming, res);
    });
    const base = server.url;
    const answer = await fetch(`${base}/x`, { method: 'POST', body: 'abc' });
    expect(await answer.json()).toEqual({ text: 'abc', data: 0, end: 0 });
  });

  it('reads a declared-length body that arrives in pieces, and one that stops midway rejects and lets go', async () => {
    const seen: { text?: string; failed?: boolean; data?: number; end?: number }[] = [];
    let started: () => void = () => {};
    let req: IncomingMessage | undefined;
    const handler = createNodeHandler({
      handle: async (request) => {
        started();
        const result: (typeof seen)[number] = {};
        seen.push(result);
        try {
          result.text = await request.text();
        } catch {
          result.failed = true;
        }
        Object.assign(result, { data: req?.listenerCount('data'), end: req?.listenerCount('end') });
        return new Response('ok');
      },
    });
    server = await listen((incoming, res) => {
      req = incoming;
      void handler(incoming, res);
    });
    const send = async (pieces: string[], length: number, leave: boolean) => {
      const handled = new Promise<void>((resolve) => {
        started = resolve;
      });
      const call = httpRequest(`${server?.url}/x`, { method: 'POST', headers: { 'content-length': String(length) } });
      call.on('response', (res) => res.resume());
      call.on('error', () => {}); // the one that leaves
      const answered = new Promise((resolve) => call.on('close', resolve));
      call.flushHeaders();
      await handled;
      for (const piece of pieces) {
        call.write(piece);
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      if (leave) call.destroy();
      else call.end();
      await answered;
    };
    await send(['{"a":', '"bc"', ',"d":1}'], 16, false);
    await send(['{"a":'], 16, true);
    await expect.poll(() => seen.length === 2 && seen[1]?.failed !== undefined).toBe(true);
    expect(seen).toEqual([
      { text: '{"a":"bc","d":1}', data: 0, end: 0 },
      { failed: true, data: 0, end: 0 },
    ]);
  });

  it('tells of a client that leaves: the hook and the signal fire on disconnect, not after a finished answer', async () => {
    const heard: string[] = [];
    let gone: () => void = () => {};
    const left = new Promise<void>((resolve) => {
      gone = resolve;
    });
    const base = await serve(async (request) => {
      const disconnect = requestDisconnect(request);
      const path = new URL(request.url).pathname;
      disconnect.onAbort?.(() => heard.push(`hook ${path}`));
      const signal = disconnect.signal();
      signal.addEventListener('abort', () => {
        heard.push(`signal ${path} ${(signal.reason as Error).message}`);
        gone();
      });
      if (path === '/done') return new Response('ok');
      return new Response(new ReadableStream({ start: (controller) => controller.enqueue(new Uint8Array([58, 10])) }));
    });
    expect(await (await fetch(`${base}/done`)).text()).toBe('ok');
    const leaving = new AbortController();
    const answer = await fetch(`${base}/stream`, { signal: leaving.signal });
    await answer.body?.getReader().read();
    leaving.abort();
    await left;
    expect(heard.sort()).toEqual(['hook /stream', 'signal /stream client disconnected']);
  });

  it('serves GET without a body', async () => {
    const base = await serve(async (request) => new Response(`${request.method} ${request.body === null}`));
    expect(await (await fetch(`${base}/x`)).text()).toBe('GET true');
  });

  it('reads headers as Headers does: any case, repeated values joined, iteration', async () => {
    const base = await serve(async (request) =>
      Response.json({
        multi: request.headers.get('X-Multi'),
        missing: request.headers.get('x-missing'),
        has: request.headers.has('x-MULTI'),
        spaced: request.headers.get('x-spaced'),
        listed: [...request.headers].filter(([name]) => name.startsWith('x-')),
      }),
    );
    const text = await new Promise<string>((resolve, reject) => {
      const call = httpRequest(`${base}/h`, { headers: { 'x-multi': ['a', 'b'], 'x-spaced': 'v \t' } }, (res) => {
        let out = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          out += chunk;
        });
        res.on('end', () => resolve(out));
      });
      call.on('error', reject);
      call.end();
    });
    expect(JSON.parse(text)).toEqual({
      multi: 'a, b',
      missing: null,
      has: true,
      spaced: 'v',
      listed: [
        ['x-multi', 'a, b'],
        ['x-spaced', 'v'],
      ],
    });
  });
});
