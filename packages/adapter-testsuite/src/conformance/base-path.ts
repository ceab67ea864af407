import { ClientFactory } from '@a2a-js/sdk/client';
import { expect, it } from 'vitest';
import { client, read, userMessage } from '../client.js';
import { BASE_PATH, type Setup, USER } from './setup.js';

/**
 * The documented mount: the handler knows its base path and the adapter sits at the root, so the well-known
 * documents are where clients look (the origin's `/.well-known/`, RFC 8615) and the endpoints under the base path.
 */
export function defineBasePathCases(s: Setup): void {
  const base = () => `${s.origin}${BASE_PATH}`;

  it('serves the agent card at the origin root, its interface URLs under the base path', async () => {
    for (const path of [
      '/.well-known/agent-card.json',
      '/.well-known/agent.json',
      `${BASE_PATH}/.well-known/agent-card.json`,
    ]) {
      const card = await read(await fetch(`${s.origin}${path}`));
      expect(card.status, path).toBe(200);
      expect(card.body.name).toBe('Conformance fixture');
      const urls = card.body.supportedInterfaces.map((i: { url: string }) => i.url);
      expect(urls).toContain(`${base()}/`);
      expect(urls).toContain(base());
    }
    const head = await fetch(`${s.origin}/.well-known/agent-card.json`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    const proxied = await read(
      await fetch(`${s.origin}/.well-known/agent-card.json`, {
        headers: { 'x-forwarded-proto': 'https', 'x-forwarded-host': 'agents.example.com' },
      }),
    );
    expect(proxied.body.supportedInterfaces[0].url).toBe(`https://agents.example.com${BASE_PATH}/`);
  });

  it('answers JSON-RPC at the base path with and without the trailing slash, and REST under it', async () => {
    for (const url of [base(), `${base()}/`]) {
      const r = await read(
        await fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...USER },
          body: JSON.stringify({
            jsonrpc: '2.0',
            id: 1,
            method: 'SendMessage',
            params: { message: userMessage('hi') },
          }),
        }),
      );
      expect(r.status, url).toBe(200);
      expect(r.body.result.task.status.state).toBe('TASK_STATE_COMPLETED');
    }
    const rest = await client(base()).rest('POST', '/message:send', { message: userMessage('hi') }, USER);
    expect(rest.status).toBe(200);
    expect(rest.body.task.status.state).toBe('TASK_STATE_COMPLETED');
  });

  it('leaves every other path to the app, the root included', async () => {
    const host = await read(await fetch(`${s.origin}/host-route`));
    expect(host.text).toBe('host');
    const rpcAtRoot = await read(
      await fetch(`${s.origin}/`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'GetTask', params: { id: 'x' } }),
      }),
    );
    for (const r of [
      rpcAtRoot,
      await read(await fetch(`${s.origin}${BASE_PATH}bc/message:send`, { method: 'POST' })),
      await read(await fetch(`${s.origin}/.well-known/jwks.json`)), // no signing keys: nothing to serve
      await read(await fetch(`${s.origin}/.well-known/security.txt`)),
      await read(await fetch(`${s.origin}/tasks`)),
    ]) {
      expect(r.status).toBe(404);
      expect(r.body?.error?.code ?? r.body?.error?.details).toBeUndefined(); // the framework's 404
    }
  });

  it('lets the official client (@a2a-js/sdk) find the card from the origin and send a message', async () => {
    const agent = await new ClientFactory().createFromUrl(s.origin);
    const result = await agent.sendMessage({
      message: { messageId: crypto.randomUUID(), role: 1, parts: [{ content: { $case: 'text', value: 'hi sdk' } }] },
    } as unknown as Parameters<typeof agent.sendMessage>[0]);
    const task = result as { id?: string; status?: { state?: unknown } };
    expect(task.id).toBeTruthy();
    const got = await agent.getTask({ id: task.id } as Parameters<typeof agent.getTask>[0]);
    expect(got.id).toBe(task.id);
    expect(got.artifacts[0]?.parts[0]?.content).toEqual({ $case: 'text', value: 'hi sdk' });
  });
}
