import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createNodeHandler } from '../src/node/index.js';

// The Node bridge's fast path hands handlers a Request view; a handler using the full Request API must not notice.
let server: Server | undefined;
afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

async function serve(handle: (request: Request) => Promise<Response>): Promise<string> {
  server = createServer(createNodeHandler({ handle: (request) => handle(request) }));
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
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

  it('serves GET without a body', async () => {
    const base = await serve(async (request) => new Response(`${request.method} ${request.body === null}`));
    expect(await (await fetch(`${base}/x`)).text()).toBe('GET true');
  });
});
