import { RawConnection } from '@a2a/adapter-testsuite';
import { createA2AHandler } from '@a2a/core';
import { forbidden } from '@hapi/boom';
import Hapi from '@hapi/hapi';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { a2aHapi } from '../src/index.js';

// Requests Hapi would answer itself with Boom's body (`{"statusCode":...,"error":...}`): on the plugin's paths they
// get the A2A error body; the app's own routes and paths keep Hapi's errors.

const agentCard = {
  name: 'A',
  description: 'd',
  version: '1',
  skills: [{ id: 's', name: 's', description: 'd', tags: ['t'] }],
};
const BOOM = /^\{"statusCode":\d+,"error":/;

for (const prefix of ['', '/a2a']) {
  describe(`Hapi errors on A2A paths, mounted at '${prefix || '/'}'`, () => {
    let server: Hapi.Server;
    let origin: string;
    beforeAll(async () => {
      const handler = createA2AHandler({ agentCard, executor: { execute: (ctx) => ctx.complete('ok') } });
      server = Hapi.server({ port: 0, host: '127.0.0.1' });
      await server.register({ plugin: a2aHapi, options: { handler } }, prefix ? { routes: { prefix } } : {});
      server.route({ method: 'GET', path: '/app/{id}', handler: () => forbidden('not yours') });
      await server.start();
      origin = server.info.uri;
    });
    afterAll(() => server.stop({ timeout: 100 }));

    /** A google.rpc.Status body (`code` absent: any 4xx, the body's code matching the HTTP status). */
    const statusBody = async (response: Response, code?: number, status = expect.any(String)) => {
      const text = await response.text();
      expect(text).not.toMatch(BOOM);
      if (code === undefined) code = response.status;
      expect(code).toBeGreaterThanOrEqual(400);
      expect(code).toBeLessThan(500);
      expect(response.status).toBe(code);
      expect(response.headers.get('content-type')).toMatch(/^application\/json/);
      expect(JSON.parse(text).error).toMatchObject({ code, status, message: expect.any(String) });
      expect(text).not.toMatch(/node_modules|\.[cm]?[jt]s:\d+/);
    };

    it('routes a percent-escaped task path by the path as sent (Hapi decodes %3A to `:`)', async () => {
      const escaped = encodeURIComponent('[{")8":["-1"]}]');
      await statusBody(
        await fetch(`${origin}${prefix}/tasks/${escaped}/pushNotificationConfigs/no-such`, { method: 'DELETE' }),
      );
      await statusBody(await fetch(`${origin}${prefix}/tasks/no%3Asuch`), 404, 'NOT_FOUND');
    });

    it('answers a path Hapi cannot decode (`%zz`) with the A2A 400, on the same keep-alive connection', async () => {
      await statusBody(await fetch(`${origin}${prefix}/tasks/%zz`), 400, 'INVALID_ARGUMENT');
      const port = Number(server.info.port);
      const conn = await RawConnection.open('127.0.0.1', port);
      try {
        const body = JSON.stringify({ message: { messageId: 'm', role: 'ROLE_USER', parts: [{ text: 'x' }] } });
        const headers = [['content-type', 'application/json']] as const;
        const r = await conn.send({ method: 'POST', path: `${prefix}/tasks/%zz:cancel`, headers, body }, 5_000);
        expect(r.status).toBe(400);
        expect(r.body).not.toMatch(BOOM);
        expect(JSON.parse(r.body).error).toMatchObject({ code: 400, status: 'INVALID_ARGUMENT' });
        expect(r.closing).toBe(false);
        const card = await conn.send(
          { method: 'GET', path: `${prefix}/.well-known/agent-card.json`, headers: [] },
          5_000,
        );
        expect(card.status).toBe(200);
      } finally {
        conn.close();
      }
    });

    it('leaves an unparsable Content-Type to core: a JSON-RPC error echoing the id', async () => {
      const response = await fetch(`${origin}${prefix}/`, {
        method: 'POST',
        headers: { 'content-type': ';', 'a2a-version': '1.0' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'GetTask', params: { id: 'none' } }),
      });
      const text = await response.text();
      expect(text).not.toMatch(BOOM);
      const body = JSON.parse(text);
      expect(body).toMatchObject({ jsonrpc: '2.0', id: 7, error: { code: expect.any(Number) } });
    });

    it("keeps Hapi's own errors for the app's routes and paths", async () => {
      const own = await fetch(`${origin}/app/x`);
      expect(own.status).toBe(403);
      expect(await own.json()).toEqual({ statusCode: 403, error: 'Forbidden', message: 'not yours' });
      const undecodable = await fetch(`${origin}/app/%zz`);
      expect(undecodable.status).toBe(400);
      expect(await undecodable.text()).toMatch(BOOM);
      const missing = await fetch(`${origin}/elsewhere/x`, { method: 'POST' });
      expect(missing.status).toBe(404);
      if (prefix) expect(await missing.text()).toMatch(BOOM);
    });
  });
}
