import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { writeNodeResponse } from './write-node-response.js';

/** One request to a real server on 127.0.0.1 whose listener hands its response to `use`. */
async function withResponse(use: (res: ServerResponse) => Promise<unknown>): Promise<{ body: string; used: unknown }> {
  let used: Promise<unknown> = Promise.resolve();
  const server = createServer((_req, res) => {
    used = use(res).then(undefined, (error: unknown) => error); // handled at once: a rejection is the answer here
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const { port } = server.address() as AddressInfo;
    const body = await (await fetch(`http://127.0.0.1:${port}/`)).text();
    return { body, used: await used };
  } finally {
    server.close();
  }
}

describe('writeNodeResponse', () => {
  it('writes a ready answer in one go and settles', async () => {
    const { body, used } = await withResponse((res) => writeNodeResponse(res, new Response('hello')));
    expect(body).toBe('hello');
    expect(used).toBeUndefined();
  });

  it('rejects, and does not throw, when the response cannot be written (headers already sent)', async () => {
    let thrown: unknown;
    const { body, used } = await withResponse((res) => {
      res.end('first');
      try {
        return writeNodeResponse(res, new Response('second'));
      } catch (error) {
        thrown = error;
        return Promise.resolve();
      }
    });
    expect(body).toBe('first');
    expect(thrown).toBeUndefined();
    expect(used).toMatchObject({ code: 'ERR_HTTP_HEADERS_SENT' });
  });
});
