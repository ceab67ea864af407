import { describe, expect, it } from 'vitest';
import { read, sse, userMessage } from '../client.js';
import { FIXTURE_MAX_BODY } from '../fixture.js';
import { expectStatusBody, type Setup, USER } from './setup.js';

/** HTTP edges: fall-through, the agent card under the mount and behind a proxy, content types, the body limit, UTF-8. */
export function defineHttpEdgeCases(s: Setup, mountPath: string): void {
  describe('HTTP edges', () => {
    it('leaves unknown paths to the framework', async () => {
      const host = await read(await fetch(`${s.c.base}/host-route`));
      expect(host.status).toBe(200);
      expect(host.text).toBe('host');
      const unknown = await read(await fetch(`${s.c.base}/not-a2a/at/all`));
      expect(unknown.status).toBe(404);
      expect(unknown.body?.error?.details).toBeUndefined(); // the framework's 404, not an A2A error body
      const posted = await read(
        await fetch(`${s.c.base}/not-a2a/at/all`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: '{"a":1}',
        }),
      );
      expect(posted.status).toBe(404);
      expect(posted.body?.error?.details).toBeUndefined();
      if (mountPath) expect((await fetch(`${s.origin}/.well-known/agent-card.json`)).status).toBe(404);
    });

    it('serves the agent card with absolute URLs under the mount prefix and behind a proxy', async () => {
      const direct = await read(await fetch(`${s.c.base}/.well-known/agent-card.json`));
      expect(direct.status).toBe(200);
      expect(direct.headers.get('content-type')).toMatch(/^application\/json/);
      expect(direct.body.name).toBe('Conformance fixture');
      const urls = direct.body.supportedInterfaces.map((i: { url: string }) => i.url);
      expect(urls).toContain(`${s.c.base}/`);
      expect(direct.body.supportedInterfaces.map((i: { protocolBinding: string }) => i.protocolBinding)).toEqual(
        expect.arrayContaining(['JSONRPC', 'HTTP+JSON']),
      );
      const proxied = await read(
        await fetch(`${s.c.base}/.well-known/agent-card.json`, {
          headers: { 'x-forwarded-proto': 'https', 'x-forwarded-host': 'agents.example.com' },
        }),
      );
      // JSON-RPC posts to the mount point itself; REST clients append `/message:send` to a URL without a slash.
      for (const i of proxied.body.supportedInterfaces) {
        const expected = `https://agents.example.com${mountPath}${i.protocolBinding === 'HTTP+JSON' ? '' : '/'}`;
        expect(i.url).toBe(expected);
      }
    });

    it('accepts JSON content types with parameters and refuses others (415)', async () => {
      for (const type of [
        'application/json; charset=utf-8',
        'application/a2a+json',
        'Application/JSON;charset=UTF-8',
      ]) {
        const r = await read(
          await s.c.rpcFetch('SendMessage', { message: userMessage('reply typed') }, { 'content-type': type }),
        );
        expect(r.body.result.message.parts[0].text).toBe('you said typed');
      }
      const rpc = await read(
        await s.c.rpcRaw('{"jsonrpc":"2.0","id":1,"method":"GetTask","params":{"id":"x"}}', {
          'content-type': 'text/plain',
        }),
      );
      expect(rpc.status).toBe(415);
      const rest = await read(
        await fetch(`${s.c.base}/message:send`, {
          method: 'POST',
          headers: { 'content-type': 'text/plain' },
          body: '{}',
        }),
      );
      expect(rest.status).toBe(415);
      expectStatusBody(rest.body, 415);
    });

    it('refuses bodies over the limit (413) with an A2A error body', async () => {
      const big = JSON.stringify({ message: userMessage('x'.repeat(FIXTURE_MAX_BODY * 8)) });
      const rest = await read(
        await fetch(`${s.c.base}/message:send`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: big,
        }),
      );
      expect(rest.status).toBe(413);
      expectStatusBody(rest.body, 413);
      const rpc = await read(
        await s.c.rpcFetch('SendMessage', { message: userMessage('x'.repeat(FIXTURE_MAX_BODY * 8)) }),
      );
      expect(rpc.status).toBe(413);
      expect(rpc.body.error.code).toBe(-32600);
    });

    it('round-trips UTF-8 (multibyte) text', async () => {
      const text = 'héllo wörld ✓ 日本語 🚀👩‍💻';
      const rpc = await s.c.rpc('SendMessage', { message: userMessage(text) }, USER);
      expect(rpc.body.result.task.artifacts[0].parts[0].text).toBe(text);
      const bytes = new TextEncoder().encode(JSON.stringify({ message: userMessage(text) }));
      const rest = await read(
        await fetch(`${s.c.base}/message:send`, {
          method: 'POST',
          headers: { 'content-type': 'application/json; charset=utf-8' },
          body: bytes,
        }),
      );
      expect(rest.body.task.artifacts[0].parts[0].text).toBe(text);
      const stream = sse(await s.c.rpcFetch('SendStreamingMessage', { message: userMessage(text) }, USER));
      const events = await stream.rest();
      expect(events.some((e) => e.data.includes(text))).toBe(true);
    });
  });
}
