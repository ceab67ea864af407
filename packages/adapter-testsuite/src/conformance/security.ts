import { expect, it } from 'vitest';
import { read, userMessage } from '../client.js';
import { expectStatusBody, type Setup, USER } from './setup.js';

/** Security schemes declared: a public card, 401 with WWW-Authenticate, 403 for missing scopes. */
export function defineSecurityCases(s: Setup, mountPath: string): void {
  it('keeps the card public and declares the scheme', async () => {
    const card = await read(await fetch(`${s.c.base}/.well-known/agent-card.json`));
    expect(card.status).toBe(200);
    expect(card.body.securitySchemes.bearer.httpAuthSecurityScheme.scheme).toBe('Bearer');
    expect(card.body.supportedInterfaces.map((i: { url: string }) => i.url)).toContain(`${s.origin}${mountPath}/`);
  });

  it('answers 401 with WWW-Authenticate without a caller, and serves an authenticated one', async () => {
    const rest = await s.c.rest('GET', '/tasks');
    expect(rest.status).toBe(401);
    expect(rest.headers.get('www-authenticate')).toMatch(/^Bearer/);
    expectStatusBody(rest.body, 401);
    const rpc = await s.c.rpc('ListTasks', {});
    expect(rpc.status).toBe(401);
    expect(rpc.headers.get('www-authenticate')).toMatch(/^Bearer/);
    expect(rpc.body.error).toBeDefined();
    const stream = await read(await s.c.restFetch('POST', '/message:stream', { message: userMessage('hi') }));
    expect(stream.status).toBe(401);
    const ok = await s.c.rest('POST', '/message:send', { message: userMessage('hi') }, USER);
    expect(ok.status).toBe(200);
    expect(ok.body.task.status.state).toBe('TASK_STATE_COMPLETED');
  });

  it('answers 403 to a caller whose scopes miss the required one, 200 to one that has it', async () => {
    const weak = { 'x-test-user': 'mallory; agent:read' };
    const rest = await s.c.rest('POST', '/message:send', { message: userMessage('hi') }, weak);
    expect(rest.status).toBe(403);
    expectStatusBody(rest.body, 403);
    expect(rest.headers.get('www-authenticate')).toBeNull();
    const rpc = await s.c.rpc('SendMessage', { message: userMessage('hi') }, weak);
    expect(rpc.status).toBe(403);
    expect(rpc.body.error).toBeDefined();
    const ok = await s.c.rpc(
      'SendMessage',
      { message: userMessage('hi') },
      { 'x-test-user': 'bob; agent:read agent:use' },
    );
    expect(ok.status).toBe(200);
    expect(ok.body.result.task.status.state).toBe('TASK_STATE_COMPLETED');
  });
}
