// A ready A2A answer goes straight to Node's response only when nothing in the server would see or change it
// (src/direct-answer.ts); otherwise through Hapi's own response path, as before.
import { createA2AHandler } from '@a2a/core';
import Hapi from '@hapi/hapi';
import { describe, expect, it } from 'vitest';
import { a2aHapi } from '../src/index.js';

const agentCard = {
  name: 'A',
  description: 'd',
  version: '1',
  skills: [{ id: 's', name: 's', description: 'd', tags: ['t'] }],
};
const send = (text = 'hi') => ({
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'SendMessage',
    params: { message: { messageId: 'm', role: 'ROLE_USER', parts: [{ text }] } },
  }),
});

/**
 * A server with the plugin, `setup` applied before it starts; counts the `write` calls on each answer's Node
 * response (Hapi's path writes the body, then ends; the direct answer ends with it).
 */
async function serve(setup: (server: Hapi.Server) => void, options: Hapi.ServerOptions = {}) {
  const handler = createA2AHandler({
    agentCard,
    executor: { execute: (ctx) => ctx.complete(ctx.message.parts[0]?.text ?? '') },
    basePath: '/a2a',
  });
  const server = Hapi.server({ port: 0, host: '127.0.0.1', ...options });
  const writes: number[] = [];
  server.ext('onRequest', (request, h) => {
    const res = request.raw.res;
    const index = writes.push(0) - 1;
    const write = res.write;
    res.write = function (this: typeof res, ...args: unknown[]) {
      writes[index] = (writes[index] ?? 0) + 1;
      return (write as (...a: unknown[]) => boolean).apply(this, args);
    } as typeof res.write;
    return h.continue;
  });
  await server.register({ plugin: a2aHapi, options: { handler } });
  setup(server);
  await server.start();
  return { origin: server.info.uri, writes, stop: () => server.stop() };
}

/** Headers and body, less what differs between two servers (the time, the card's origin and its ETag, ids). */
const answerOf = async (res: Response, origin: string) => ({
  status: res.status,
  headers: Object.fromEntries([...res.headers].filter(([name]) => !['date', 'last-modified', 'etag'].includes(name))),
  body: (await res.text())
    .replaceAll(origin, 'ORIGIN')
    .replace(/"[0-9a-f-]{36}"/g, 'ID')
    .replace(/"\d{4}-[^"]+Z"/g, 'TIME'),
});

describe('ready answers on a plain server', () => {
  it('are written at once, past Hapi, with the headers Hapi gives them', async () => {
    const plain = await serve(() => {});
    // The same server with an onPreResponse extension that changes nothing: Hapi's own path.
    const hapi = await serve((server) => server.ext('onPreResponse', (_request, h) => h.continue));
    try {
      for (const [path, init] of [
        ['/a2a', send()],
        ['/.well-known/agent-card.json', {}],
        ['/a2a/tasks/nope', {}],
      ] as const) {
        const direct = await answerOf(await fetch(`${plain.origin}${path}`, init), plain.origin);
        const through = await answerOf(await fetch(`${hapi.origin}${path}`, init), hapi.origin);
        expect(direct, path).toEqual(through);
      }
      expect(plain.writes).toEqual([0, 0, 0]);
      expect(hapi.writes.every((n) => n > 0)).toBe(true);
    } finally {
      await plain.stop();
      await hapi.stop();
    }
  });
});

describe("go through Hapi's path when the server would act on them", () => {
  it('an onPreResponse extension still sees and changes them', async () => {
    const s = await serve((server) =>
      server.ext('onPreResponse', (request, h) => {
        const response = request.response;
        if (!('isBoom' in response && response.isBoom)) (response as Hapi.ResponseObject).header('x-seen', 'yes');
        return h.continue;
      }),
    );
    try {
      expect((await fetch(`${s.origin}/a2a`, send())).headers.get('x-seen')).toBe('yes');
      expect((await fetch(`${s.origin}/.well-known/agent-card.json`)).headers.get('x-seen')).toBe('yes');
    } finally {
      await s.stop();
    }
  });

  it('CORS headers are added', async () => {
    const s = await serve(() => {}, { routes: { cors: true } });
    try {
      const init = send();
      const cors = await fetch(`${s.origin}/a2a`, { ...init, headers: { ...init.headers, origin: 'http://x.test' } });
      expect(cors.headers.get('access-control-allow-origin')).toBe('http://x.test');
    } finally {
      await s.stop();
    }
  });

  it("a 'response' listener sees Hapi's response", async () => {
    const statuses: unknown[] = [];
    const s = await serve((server) =>
      server.events.on('response', (request) => statuses.push((request.response as Hapi.ResponseObject).statusCode)),
    );
    try {
      await (await fetch(`${s.origin}/a2a`, send())).text();
      await new Promise((resolve) => setTimeout(resolve, 50)); // the event follows the answer
      expect(statuses).toEqual([200]);
    } finally {
      await s.stop();
    }
  });

  it('a cookie set on the way in is sent', async () => {
    const s = await serve((server) => {
      server.state('seen', { isSecure: false, isHttpOnly: false });
      server.ext('onPreAuth', (_request, h) => {
        h.state('seen', 'yes');
        return h.continue;
      });
    });
    try {
      expect((await fetch(`${s.origin}/a2a`, send())).headers.get('set-cookie')).toMatch(/^seen=yes/);
    } finally {
      await s.stop();
    }
  });

  it('a conditional GET and a body worth compressing get what Hapi does with them', async () => {
    const s = await serve(() => {});
    try {
      const card = await fetch(`${s.origin}/.well-known/agent-card.json`);
      const etag = card.headers.get('etag') as string;
      const again = await fetch(`${s.origin}/.well-known/agent-card.json`, { headers: { 'if-none-match': etag } });
      expect(again.status).toBe(304);
      const init = send('x'.repeat(2000));
      const big = await fetch(`${s.origin}/a2a`, { ...init, headers: { ...init.headers, 'accept-encoding': 'gzip' } });
      expect(big.headers.get('content-encoding')).toBe('gzip');
      expect((await big.json()).result.task.status.state).toBe('TASK_STATE_COMPLETED');
    } finally {
      await s.stop();
    }
  });
});
