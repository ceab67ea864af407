import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildUi } from './build-ui.js';
import {
  closedPort,
  type HttpListener,
  rawRequest,
  type Sink,
  startFirehose,
  startHttp,
  startSink,
  startTrickle,
} from './listeners.js';
import { type RemoteAgent, type Running, startPlayground, startRemoteAgent } from './servers.js';

// Regression tests of the playground as an anonymous remote visitor would use it: every request here is one a
// stranger can send, and the listeners on 127.0.0.1 prove what reached where.

let agent: RemoteAgent;
let sink: Sink; // "port 25": nothing may ever reach it
let open: Running; // allow-lists 127.0.0.1, as the demos' A2A_PLAYGROUND_ALLOW=127.0.0.1 does
let impatient: Running; // the same, with small time and byte bounds for slow and huge remotes
let trickle: HttpListener;
let firehose: HttpListener;

beforeAll(async () => {
  buildUi();
  [agent, sink, trickle, firehose] = await Promise.all([
    startRemoteAgent(),
    startSink(),
    startTrickle(),
    startFirehose(),
  ]);
  open = await startPlayground({ remote: { ssrf: { allow: ['127.0.0.1'] } } });
  impatient = await startPlayground({
    remote: { ssrf: { allow: ['127.0.0.1'] }, timeoutMs: 300, maxCardBytes: 64 * 1024 },
  });
});
afterAll(async () => {
  await Promise.all([agent, sink, open, impatient, trickle, firehose].map((s) => s?.close()));
});

const cardUrl = () => `${agent.url}/.well-known/agent-card.json`;

const api = (base: string, path: string, body: BodyInit, headers: Record<string, string> = {}) =>
  fetch(`${base}/playground/api${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-playground-api': '1', ...headers },
    body,
  });

const rpc = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'SendMessage',
  params: { message: { messageId: 'm1', role: 'ROLE_USER', parts: [{ text: 'hi' }] } },
});

describe('the proxy is not an open relay', () => {
  it('refuses a target the connected card does not name: port 25 on an allow-listed host receives nothing', async () => {
    const smtp = await api(open.url, '/proxy', 'HELO x', {
      'x-playground-target': `${sink.url}/`,
      'x-playground-card': cardUrl(),
      'x-playground-method': 'POST',
    });
    expect(smtp.status).toBe(403);
    expect((await smtp.json()).error).toMatch(/is not an interface of the agent card .*allowTargets/);
    // Without a card there is nothing to call.
    const cardless = await api(open.url, '/proxy', rpc, { 'x-playground-target': `${sink.url}/` });
    expect(cardless.status).toBe(400);
    // Encoded separators, which a server may decode into other path segments after the check, are refused.
    for (const target of [`${agent.url}/a%2fb`, `${agent.url}/a%5C..%5Cb`]) {
      const r = await api(open.url, '/proxy', rpc, { 'x-playground-target': target, 'x-playground-card': cardUrl() });
      expect(r.status, target).toBe(403);
    }
    expect(sink.connections, sink.received).toBe(0);
  });

  it("calls the card's own interface with A2A's methods, content types and headers only", async () => {
    const text = await api(open.url, '/proxy', rpc, {
      'content-type': 'text/plain',
      'x-playground-target': `${agent.url}/`,
      'x-playground-card': cardUrl(),
    });
    expect(text.status).toBe(415);
    const put = await api(open.url, '/proxy', rpc, {
      'x-playground-target': `${agent.url}/`,
      'x-playground-card': cardUrl(),
      'x-playground-method': 'PUT',
    });
    expect(put.status).toBe(400);

    const before = agent.seen.length;
    const ok = await api(open.url, '/proxy', rpc, {
      'x-playground-target': `${agent.url}/`,
      'x-playground-card': cardUrl(),
      'x-playground-headers': 'x-listed, cookie, x-forwarded-for, host',
      'x-listed': 'yes',
      'x-api-key': 'not listed',
      authorization: 'Basic cached-for-the-playground-site',
      'x-forwarded-for': '10.0.0.1',
      accept: 'application/json',
      'a2a-version': '1.0',
    });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('content-security-policy')).toContain('sandbox');
    expect((await ok.json()).result).toBeDefined();
    expect(agent.seen.length).toBe(before + 1);
    const seen = agent.seen.at(-1) as Headers;
    expect(seen.get('x-listed')).toBe('yes');
    expect(seen.get('a2a-version')).toBe('1.0');
    for (const name of ['x-api-key', 'authorization', 'x-forwarded-for', 'cookie', 'x-playground-card']) {
      expect(seen.get(name), name).toBeNull();
    }
  });

  it("does not follow a card's interfaces into another host's private addresses", async () => {
    // A card served from 127.0.0.2 (another host name) naming an interface on 127.0.0.1: the allow list covers the
    // card's own host, and a card may not widen it to its neighbours.
    let other: HttpListener;
    try {
      other = await startHttp((_req, res) => {
        res.setHeader('content-type', 'application/json');
        res.end(
          JSON.stringify({ name: 'x', supportedInterfaces: [{ url: `${sink.url}/`, protocolBinding: 'JSONRPC' }] }),
        );
      }, '127.0.0.2');
    } catch {
      return; // no 127.0.0.2 on this system (not Linux): nothing to show
    }
    const wide = await startPlayground({ remote: { ssrf: { allow: ['127.0.0.0/8'] } } });
    try {
      const r = await api(wide.url, '/proxy', rpc, {
        'x-playground-target': `${sink.url}/`,
        'x-playground-card': `${other.url}/card.json`,
      });
      expect(r.status).toBe(403);
      expect((await r.json()).error).toMatch(/127\.0\.0\.1 is a loopback address/);
      expect(sink.connections, sink.received).toBe(0);
    } finally {
      await Promise.all([other.close(), wide.close()]);
    }
  });

  it('answers an unreachable agent with a fixed message, not the network error (no port scanning)', async () => {
    const port = await closedPort();
    const r = await api(open.url, '/card', JSON.stringify({ url: `http://127.0.0.1:${port}/card.json` }));
    expect(r.status).toBe(502);
    const { error } = await r.json();
    expect(error).toBe('Could not reach the agent');
  });
});

describe('Host and Origin: DNS rebinding and cross-site requests', () => {
  const port = () => new URL(open.url).port;

  it('refuses a Host the app does not serve, on the page and the API, before anything is fetched', async () => {
    const hits = agent.hits.length;
    const host = `rebind.attacker.test:${port()}`;
    const page = await rawRequest(open.url, '/playground', { headers: { host } });
    expect(page.status).toBe(403);
    expect(JSON.parse(page.body).error).toMatch(/allowedHosts: \["rebind\.attacker\.test"\]/);
    const proxied = await rawRequest(open.url, '/playground/api/proxy', {
      method: 'POST',
      headers: {
        host,
        origin: `http://${host}`,
        'content-type': 'application/json',
        'x-playground-target': `${agent.url}/`,
        'x-playground-card': cardUrl(),
      },
      body: rpc,
    });
    expect(proxied.status).toBe(403);
    expect(agent.hits.length).toBe(hits);
    // Listed, the name is served.
    const named = await startPlayground({ allowedHosts: ['.attacker.test'] });
    try {
      expect((await rawRequest(named.url, '/playground', { headers: { host } })).status).toBe(200);
    } finally {
      await named.close();
    }
  });

  it("refuses a cross-site POST (a form's text/plain, another Origin, Sec-Fetch-Site) to /api/card", async () => {
    const hits = agent.hits.length;
    const form = await rawRequest(open.url, '/playground/api/card', {
      method: 'POST',
      headers: { origin: 'http://evil.test', 'content-type': 'text/plain', 'sec-fetch-site': 'cross-site' },
      body: JSON.stringify({ url: cardUrl() }),
    });
    expect(form.status).toBe(403);
    const body = JSON.stringify({ url: cardUrl() });
    for (const headers of [
      { origin: 'http://evil.test', 'content-type': 'application/json', 'x-playground-api': '1' },
      { origin: 'null', 'content-type': 'application/json' },
      { 'content-type': 'application/json' }, // neither Origin nor the API header
      { 'content-type': 'application/json', 'x-playground-api': '1', 'sec-fetch-site': 'same-site' },
    ]) {
      const r = await rawRequest(open.url, '/playground/api/card', { method: 'POST', headers, body });
      expect(r.status, JSON.stringify(headers)).toBe(403);
    }
    expect(agent.hits.length).toBe(hits);
    // The page itself: same-origin Origin (what a browser sends), or the API header from a non-browser client.
    const own = await rawRequest(open.url, '/playground/api/card', {
      method: 'POST',
      headers: { origin: open.url, 'content-type': 'application/json', 'sec-fetch-site': 'same-origin' },
      body,
    });
    expect(own.status).toBe(200);
    const text = await api(open.url, '/card', body, { 'content-type': 'text/plain' });
    expect(text.status).toBe(415);
  });
});

describe('bounded card fetches', () => {
  it('gives up on a card that trickles a byte at a time, within the whole-fetch deadline', async () => {
    const r = await api(impatient.url, '/card', JSON.stringify({ url: `${trickle.url}/card.json` }));
    expect(r.status).toBe(504);
    expect((await r.json()).error).toBe('The agent card did not arrive within 300 ms');
  });

  it('stops reading a card that never ends at the byte limit', async () => {
    const r = await api(impatient.url, '/card', JSON.stringify({ url: `${firehose.url}/card.json` }));
    expect(r.status).toBe(502);
    expect((await r.json()).error).toBe('The agent card is larger than 65536 bytes');
  });
});

describe('deeply nested cards', () => {
  it('refuses a card nested 10 000 deep with 422, before validating or serialising it', async () => {
    const deep = `${'['.repeat(10_000)}${']'.repeat(10_000)}`;
    const r = await api(open.url, '/card', `{"url":"http://example.test/card","card":${deep}}`);
    expect(r.status).toBe(422);
    expect((await r.json()).error).toMatch(/nested deeper than 64 levels/);
    const remote = await startHttp((_req, res) => {
      res.setHeader('content-type', 'application/json');
      res.end(`{"a":${deep}}`);
    });
    try {
      const fetched = await api(open.url, '/card', JSON.stringify({ url: `${remote.url}/card.json` }));
      expect(fetched.status).toBe(502);
      expect((await fetched.json()).error).toMatch(/nested deeper than 64 levels/);
    } finally {
      await remote.close();
    }
    // 64 levels still pass.
    const fine = `${'['.repeat(63)}${']'.repeat(63)}`;
    const ok = await api(open.url, '/card', `{"url":"http://example.test/card","card":{"x":${fine}}}`);
    expect(ok.status).toBe(200);
  });
});
