import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { badPorts } from '../src/bad-ports.js';
import { buildUi } from './build-ui.js';
import { type HttpListener, type Sink, startHttp, startSink } from './listeners.js';
import { type RemoteAgent, type Running, startPlayground, startRemoteAgent } from './servers.js';

// The Fetch standard's bad ports (SMTP, SSH, IRC…): refused on every path the server connects on, the card, the JWKS a
// card's signature names and the proxied call, before any connection. A listener on a bad port proves none is made.

/** The bad ports a test may bind without root, least likely in use first. */
const UNPRIVILEGED = badPorts()
  .filter((p) => p >= 1024)
  .reverse();

/** A sink on the first free unprivileged bad port. */
async function startBadPortSink(): Promise<Sink> {
  for (const port of UNPRIVILEGED) {
    try {
      return await startSink('127.0.0.1', port);
    } catch {
      // in use on this machine: the next one
    }
  }
  throw new Error(`none of the bad ports ${UNPRIVILEGED.join(', ')} is free on 127.0.0.1`);
}

let sink: Sink;
let agent: RemoteAgent;
let cards: HttpListener; // serves cards that point at the sink
let open: Running; // allow-lists 127.0.0.1: only the port check stands between a card and the sink

const b64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

beforeAll(async () => {
  buildUi();
  sink = await startBadPortSink();
  agent = await startRemoteAgent();
  cards = await startHttp((req, res) => {
    const card = {
      name: 'Points at a bad port',
      description: 'x',
      version: '1',
      capabilities: {},
      defaultInputModes: ['text/plain'],
      defaultOutputModes: ['text/plain'],
      skills: [],
      supportedInterfaces: [{ url: `${sink.url}/`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' }],
      // A signature whose header sends the JWKS fetch to the sink.
      ...(req.url === '/signed.json'
        ? {
            signatures: [
              { protected: b64url({ alg: 'ES256', kid: 'k', jku: `${sink.url}/jwks.json` }), signature: 'x' },
            ],
          }
        : {}),
    };
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify(card));
  });
  open = await startPlayground({ remote: { ssrf: { allow: ['127.0.0.1'] } } });
});
afterAll(async () => {
  await Promise.all([sink, agent, cards, open].map((s) => s?.close()));
});

const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${open.url}/playground/api${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-playground-api': '1', ...headers },
    body: JSON.stringify(body),
  });

const rpc = {
  jsonrpc: '2.0',
  id: 1,
  method: 'SendMessage',
  params: { message: { messageId: 'm1', role: 'ROLE_USER', parts: [{ text: 'hi' }] } },
};

describe("the Fetch standard's bad ports", () => {
  it("are the ports Node's own fetch refuses", async () => {
    for (const port of badPorts()) {
      const error = await fetch(`http://127.0.0.1:${port}/`).then(
        () => undefined,
        (e: Error) => e,
      );
      expect((error?.cause as Error | undefined)?.message, `port ${port}`).toBe('bad port');
    }
    expect(badPorts()).not.toEqual(expect.arrayContaining([80]));
    expect(badPorts().some((p) => [80, 443, 8080, 3000].includes(p))).toBe(false);
  });

  it('refuses a card on a bad port with 403 and the reason, without connecting', async () => {
    const r = await post('/card', { url: `${sink.url}/.well-known/agent-card.json` });
    expect(r.status).toBe(403);
    expect((await r.json()).error).toMatch(new RegExp(`port ${sink.port} is one of the Fetch standard's bad ports`));
    expect(sink.connections, sink.received).toBe(0);
  });

  it('refuses the JWKS a card names on a bad port: the signature is unverifiable, with the reason', async () => {
    const r = await post('/card', { url: `${cards.url}/signed.json` });
    expect(r.status).toBe(200);
    const report = await r.json();
    expect(report.signature.status).toBe('unverifiable');
    expect(report.signature.detail).toMatch(new RegExp(`JWKS .* could not be fetched: Refused: port ${sink.port} `));
    expect(sink.connections, sink.received).toBe(0);
  });

  it('refuses to proxy to an interface on a bad port, though the connected card names it', async () => {
    const card = `${cards.url}/card.json`;
    expect((await post('/card', { url: card })).status).toBe(200); // the card itself is on a normal port
    const r = await post('/proxy', rpc, { 'x-playground-target': `${sink.url}/`, 'x-playground-card': card });
    expect(r.status).toBe(403);
    expect((await r.json()).error).toMatch(/bad ports/);
    expect(sink.connections, sink.received).toBe(0);
  });

  it('lets a normal port through: card and proxied call', async () => {
    const card = `${agent.url}/.well-known/agent-card.json`;
    expect((await post('/card', { url: card })).status).toBe(200);
    const r = await post('/proxy', rpc, {
      'x-playground-target': `${agent.url}/`,
      'x-playground-card': card,
      'a2a-version': '1.0',
    });
    expect(r.status).toBe(200);
    expect((await r.json()).result.task.status.state).toBe('TASK_STATE_COMPLETED');
  });
});
