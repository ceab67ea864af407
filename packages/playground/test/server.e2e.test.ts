import { createParser } from 'eventsource-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildUi } from './build-ui.js';
import { type RemoteAgent, type Running, startPlayground, startRemoteAgent } from './servers.js';

let agent: RemoteAgent;
let open: Running; // allow-lists 127.0.0.1, as a developer would for a local agent
let strict: Running; // the default policy: public addresses only

beforeAll(async () => {
  buildUi();
  agent = await startRemoteAgent();
  open = await startPlayground({ remote: { ssrf: { allow: ['127.0.0.1'] } } });
  strict = await startPlayground();
});
afterAll(async () => {
  await Promise.all([agent.close(), open.close(), strict.close()]);
});

const post = (base: string, path: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${base}/playground${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-playground-api': '1', ...headers },
    body: JSON.stringify(body),
  });

describe('the page', () => {
  it('is served with a strict CSP and its settings as an escaped data attribute; other paths fall through', async () => {
    const page = await fetch(`${open.url}/playground`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    const html = await page.text();
    expect(html).toContain('<script type="module" src="/playground/app.js">');
    expect(html).toContain('data-config="{&quot;basePath&quot;:&quot;/playground&quot;');
    for (const asset of ['app.js', 'app.css']) {
      const r = await fetch(`${open.url}/playground/${asset}`);
      expect(r.status).toBe(200);
      expect((await r.text()).length).toBeGreaterThan(100);
    }
    expect((await fetch(`${open.url}/playground/`)).status).toBe(200);
    expect((await fetch(`${open.url}/elsewhere`)).status).toBe(404); // Express's own 404: the playground said undefined
    expect((await fetch(`${open.url}/playground`, { method: 'POST' })).status).toBe(405);
    expect((await fetch(`${open.url}/playground/nothing`)).status).toBe(404);
  });
});

describe('remote agents through the SSRF guard', () => {
  it('refuses private addresses, loopback names and non-HTTP schemes with a message, without connecting', async () => {
    const own = `${agent.url}/.well-known/agent-card.json`;
    const cases: [string, RegExp][] = [
      [own, /127\.0\.0\.1 is a loopback address/],
      ['http://10.1.2.3/.well-known/agent-card.json', /10\.1\.2\.3 is a private address/],
      ['http://169.254.169.254/latest/meta-data', /linkLocal/],
      ['http://[::ffff:127.0.0.1]:80/', /not|loopback|ipv4Mapped/i],
      ['http://localhost:9/card', /localhost is a loopback address/],
      ['file:///etc/passwd', /only http and https URLs can be fetched, not file:/],
      ['javascript:alert(1)', /not javascript:/],
      ['ftp://example.com/card.json', /not ftp:/],
      ['http://user:secret@example.com/', /credentials/],
      ['not a url', /not an absolute URL/],
      // A public host, on a port browsers refuse (SMTP): refused as they refuse it, before any DNS or connection.
      ['http://example.com:25/.well-known/agent-card.json', /port 25 is one of the Fetch standard's bad ports/],
    ];
    const before = agent.hits.length;
    for (const [url, message] of cases) {
      const card = await post(strict.url, '/api/card', { url });
      expect(card.status, url).toBe(403);
      expect((await card.json()).error, url).toMatch(message);
      const proxied = await post(
        strict.url,
        '/api/proxy',
        {},
        { 'x-playground-target': url, 'x-playground-card': url },
      );
      expect(proxied.status, url).toBe(403);
      expect((await proxied.json()).error, url).toMatch(message);
    }
    expect(agent.hits.length).toBe(before);
  });

  it('names the refused host in the allow-list hint, ready to paste (not a <host> placeholder)', async () => {
    const cases: [string, string][] = [
      [`${agent.url}/.well-known/agent-card.json`, "allow: ['127.0.0.1']"],
      ['http://10.1.2.3/card.json', "allow: ['10.1.2.3']"],
      ['http://agent.localhost:8080/card.json', "allow: ['agent.localhost']"],
      ['http://[::1]/card.json', "allow: ['::1']"],
    ];
    for (const [url, hint] of cases) {
      const { error } = await (await post(strict.url, '/api/card', { url })).json();
      expect(error, url).toContain(hint);
      expect(error, url).not.toContain('<host>');
    }
  });

  it("finds an agent's card from its address (the well-known path), as createFromUrl() does", async () => {
    for (const address of [agent.url, `${agent.url}/`, `${agent.url}/?x=1`]) {
      const r = await post(open.url, '/api/card', { url: address });
      expect(r.status, address).toBe(200);
      const report = await r.json();
      // The report names the card's own URL: the page's proxy calls then name it as the card.
      expect(report.url).toBe(`${agent.url}/.well-known/agent-card.json`);
      expect(report.signature.status).toBe('verified');
    }
    // Nothing at either URL: the error says what each answered.
    const none = await post(open.url, '/api/card', { url: `${agent.url}/nothing` });
    expect(none.status).toBe(502);
    expect((await none.json()).error).toBe(
      `No agent card at ${agent.url}/nothing (answered 404) nor at ${agent.url}/nothing/.well-known/agent-card.json ` +
        "(answered 404): give the agent's address or its card's URL",
    );
    // A URL ending in .json is the card itself: its own answer, nothing else tried.
    const before = agent.hits.length;
    const missing = await post(open.url, '/api/card', { url: `${agent.url}/missing.json` });
    expect((await missing.json()).error).toBe('The agent card request was answered 404');
    expect(agent.hits.slice(before)).toEqual(['/missing.json']);
  });

  it('reads a signed card: valid, signature verified through its jku', async () => {
    const r = await post(open.url, '/api/card', { url: `${agent.url}/.well-known/agent-card.json` });
    expect(r.status).toBe(200);
    const report = await r.json();
    expect(report.version).toBe('1.0');
    expect(report.errors).toEqual([]);
    expect(report.signature).toMatchObject({ status: 'verified', kid: 'k1' });
    expect(report.interfaces).toContainEqual({
      url: `${agent.url}/`,
      protocolBinding: 'JSONRPC',
      protocolVersion: '1.0',
    });
  });

  it('reports a malformed card field by field, a tampered signature as invalid, and a non-JSON card as an error', async () => {
    const invalid = await (await post(open.url, '/api/card', { url: `${agent.url}/bad/invalid.json` })).json();
    const paths = invalid.errors.map((e: { path: string }) => e.path);
    expect(paths).toEqual(expect.arrayContaining(['name', 'supportedInterfaces', 'skills.0.id']));
    expect(invalid.signature.status).toBe('unsigned');

    const tampered = await (await post(open.url, '/api/card', { url: `${agent.url}/bad/tampered.json` })).json();
    expect(tampered.errors).toEqual([]);
    expect(tampered.signature.status).toBe('invalid');
    expect(tampered.signature.detail).toMatch(/does not match/);

    const notJson = await post(open.url, '/api/card', { url: `${agent.url}/bad/not-json` });
    expect(notJson.status).toBe(502);
    expect((await notJson.json()).error).toMatch(/is not JSON/);

    const badRequest = await post(open.url, '/api/card', { nope: 1 });
    expect(badRequest.status).toBe(400);
  });

  it('refuses a card over 1 MiB with 502 and a request body over 1 MiB with 413', async () => {
    const huge = await post(open.url, '/api/card', { url: `${agent.url}/bad/huge.json` });
    expect(huge.status).toBe(502);
    expect((await huge.json()).error).toBe('The agent card is larger than 1048576 bytes');

    const tooLarge = await post(open.url, '/api/card', { url: 'http://example.test/card', card: 'x'.repeat(1 << 20) });
    expect(tooLarge.status).toBe(413);
    expect(await tooLarge.json()).toEqual({ error: 'The request is too large' });
  });

  it('checks a card the page fetched itself (same origin) without fetching anything', async () => {
    const before = agent.hits.length;
    const r = await post(open.url, '/api/card', { url: 'http://example.test/card', card: { name: 'x' } });
    expect(r.status).toBe(200);
    const report = await r.json();
    expect(report.errors.length).toBeGreaterThan(0);
    expect(agent.hits.length).toBe(before);
  });

  it('proxies JSON-RPC with the auth and custom headers, and streams SSE through frame by frame', async () => {
    const body = {
      jsonrpc: '2.0',
      id: 1,
      method: 'SendStreamingMessage',
      params: { message: { messageId: 'm1', role: 'ROLE_USER', parts: [{ text: 'hi' }] } },
    };
    const r = await post(open.url, '/api/proxy', body, {
      'x-playground-target': `${agent.url}/`,
      'x-playground-card': `${agent.url}/.well-known/agent-card.json`,
      'x-playground-headers': 'authorization, x-custom',
      authorization: 'Bearer t0ken',
      'x-custom': 'yes',
      'a2a-version': '1.0',
      accept: 'text/event-stream',
      cookie: 'session=playground-site',
    });
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(r.headers.get('x-playground-proxied')).toBe('1');
    const events: { id?: string; data: string }[] = [];
    const parser = createParser({ onEvent: (e) => events.push({ ...(e.id ? { id: e.id } : {}), data: e.data }) });
    parser.feed(await r.text());
    const results = events.map((e) => JSON.parse(e.data).result);
    expect(results.at(-1).statusUpdate.status.state).toBe('TASK_STATE_COMPLETED');
    expect(results.some((x) => x.artifactUpdate)).toBe(true);
    expect(events.every((e) => e.id !== undefined)).toBe(true);
    const seen = agent.seen.at(-1) as Headers;
    expect(seen.get('authorization')).toBe('Bearer t0ken');
    expect(seen.get('x-custom')).toBe('yes');
    expect(seen.get('cookie')).toBeNull(); // the playground site's cookies stay home
    expect(seen.get('x-playground-target')).toBeNull();
  });

  it('answers proxy misuse with 4xx, and nothing when remote agents are off', async () => {
    expect((await post(open.url, '/api/proxy', {})).status).toBe(400);
    const put = await post(
      open.url,
      '/api/proxy',
      {},
      { 'x-playground-target': `${agent.url}/`, 'x-playground-method': 'PUT' },
    );
    expect(put.status).toBe(400);
    expect((await fetch(`${open.url}/playground/api/proxy`)).status).toBe(405);
    const off = await startPlayground({ remote: false });
    try {
      const r = await post(off.url, '/api/card', { url: `${agent.url}/.well-known/agent-card.json` });
      expect(r.status).toBe(403);
      expect((await r.json()).error).toMatch(/disabled/);
    } finally {
      await off.close();
    }
  });
});
