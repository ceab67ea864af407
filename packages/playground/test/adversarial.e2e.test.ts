import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  browserContexts,
  cardUrls,
  cardVisits,
  proxyVisits,
  sameOrigin,
  type Visit,
  type World,
} from './adversarial-cases.js';
import { buildUi } from './build-ui.js';
import {
  type HttpListener,
  type RawAnswer,
  rawRequest,
  type Sink,
  startFirehose,
  startSilent,
  startSink,
  startTrickle,
} from './listeners.js';
import { type RemoteAgent, type Running, startPlayground, startRemoteAgent } from './servers.js';

// The playground's API as an anonymous remote visitor sees it, generated (fast-check, fixed seed): targets in every
// notation, cards, methods, headers, Host and Origin, bodies, slow and huge remotes. For every request: an answer
// (no hang), no 5xx but a remote's own failure (502/504 with a fixed text), no stack, path or network error text, and
// raw listeners on 127.0.0.1 that receive nothing, ever. A2A_ADVERSARIAL_RUNS / A2A_ADVERSARIAL_SEED as in
// @a2a/adapter-testsuite.

const numRuns = Number(process.env.A2A_ADVERSARIAL_RUNS ?? 30);
const seed = Number(process.env.A2A_ADVERSARIAL_SEED ?? 0x2a2a);
const LIMITS = { timeoutMs: 150, maxCardBytes: 64 * 1024 };

let agent: RemoteAgent;
let sinks: Sink[];
let slow: HttpListener[];
let strict: Running; // the default policy
let open: Running; // 127.0.0.1 allow-listed (A2A_PLAYGROUND_ALLOW=127.0.0.1)

beforeAll(async () => {
  buildUi();
  agent = await startRemoteAgent();
  sinks = await Promise.all([startSink(), startSink()]);
  slow = await Promise.all([startTrickle(), startFirehose(), startSilent()]);
  strict = await startPlayground({ remote: LIMITS, maxBodyBytes: 64 * 1024 });
  open = await startPlayground({ remote: { ...LIMITS, ssrf: { allow: ['127.0.0.1'] } }, maxBodyBytes: 64 * 1024 });
});
afterAll(async () => {
  await Promise.all([agent, ...(sinks ?? []), ...(slow ?? []), strict, open].map((s) => s?.close()));
});

const world = (playground: Running): World => ({
  playground: Number(new URL(playground.url).port),
  agent: agent.url,
  agentCard: `${agent.url}/.well-known/agent-card.json`,
  sinks: sinks.map((s) => s.port),
  slow: slow.map((s) => s.url),
});

// A remote's own failure, in the playground's fixed words: never the network's error text.
const REMOTE_FAILURE =
  /^(Could not reach the agent|The (agent card|JWKS) (did not arrive within \d+ ms|is larger than \d+ bytes|is not JSON|could not be read|was answered \d+|is nested deeper than \d+ levels)|The agent did not answer within \d+ ms)$/;
const LEAKS = [
  /\bat .+:\d+:\d+/,
  /node:internal/,
  /\/work\//,
  /file:\/\//,
  /E(CONNREFUSED|CONNRESET|HOSTUNREACH|NETUNREACH|AI_AGAIN|NOTFOUND|TIMEDOUT|ADDRNOTAVAIL)/,
  /errno|syscall/i,
];

function traffic() {
  return {
    sinks: sinks.reduce((n, s) => n + s.connections, 0),
    agent: agent.hits.length,
    seen: agent.seen.length,
    slow: slow.reduce((n, s) => n + s.requests, 0),
  };
}

async function visit(base: string, v: Visit): Promise<RawAnswer> {
  return rawRequest(base, v.path, {
    method: v.method,
    headers: v.headers,
    ...(v.body !== undefined ? { body: v.body } : {}),
    signal: AbortSignal.timeout(10_000), // a bound on the test, not a timing assertion: a hang fails here
  });
}

/** The properties every answer has, and that nothing reached a sink (nor, with `nothing`, any listener at all). */
function checkAnswer(r: RawAnswer, before: ReturnType<typeof traffic>, nothing: boolean, echoed: string[] = []): void {
  const sample = `${r.status} ${r.body.slice(0, 300)}`;
  // A refusal may quote the URL the visitor sent: that is their own text, not the server's.
  let own = r.body;
  for (const text of echoed)
    own = own
      .replaceAll(JSON.stringify(JSON.stringify(text)).slice(1, -1), '')
      .replaceAll(JSON.stringify(text).slice(1, -1), '');
  if (r.status >= 500) {
    expect([502, 504], sample).toContain(r.status);
    expect(JSON.parse(r.body).error, sample).toMatch(REMOTE_FAILURE);
  }
  for (const leak of LEAKS) expect(own, sample).not.toMatch(leak);
  const after = traffic();
  expect(after.sinks, sinks.map((s) => s.received).join('|')).toBe(0);
  if (nothing)
    expect({ agent: after.agent, slow: after.slow }, sample).toEqual({ agent: before.agent, slow: before.slow });
  // What did reach the agent carried no header of the visitor's site or network.
  for (const seen of agent.seen.slice(before.seen)) {
    for (const name of [
      'cookie',
      'x-forwarded-for',
      'proxy-authorization',
      'x-playground-target',
      'x-playground-card',
    ]) {
      expect(seen.get(name), name).toBeNull();
    }
  }
}

async function property<T>(runs: number, arbitrary: fc.Arbitrary<T>, check: (value: T) => Promise<void>) {
  const result = await fc.check(fc.asyncProperty(arbitrary, check), { seed, numRuns: runs, endOnFailure: true });
  if (result.failed) {
    const error = result.errorInstance instanceof Error ? result.errorInstance.message : String(result.errorInstance);
    const sample = JSON.stringify(result.counterexample?.[0] ?? null).slice(0, 800);
    throw new Error(`${error}\n(seed ${seed}; set A2A_ADVERSARIAL_SEED to replay) ${sample}`);
  }
}

describe('the playground API against anonymous visitors (generated)', () => {
  for (const [name, allowLoopback] of [
    ['default policy', false],
    ['127.0.0.1 allow-listed', true],
  ] as const) {
    const target = () => (allowLoopback ? open : strict);

    it(`proxy: targets, cards, methods, headers and bodies (${name})`, async () => {
      await property(numRuns, proxyVisits(world(target()), allowLoopback), async (v) => {
        const before = traffic();
        const r = await visit(target().url, v);
        checkAnswer(r, before, !allowLoopback, [
          v.headers['x-playground-target'] ?? '',
          v.headers['x-playground-card'] ?? '',
        ]);
        // Only a call the agent's card names reaches it, as A2A: a JSON POST or a GET/DELETE.
        const calls = agent.hits.slice(before.agent).filter((path) => path !== '/.well-known/agent-card.json');
        if (r.status === 200 || calls.length > 0) {
          const to = new URL(v.headers['x-playground-target'] as string);
          expect(to.origin).toBe(agent.url);
        }
      });
    });

    it(`card: URLs, depths, sizes and garbage (${name})`, async () => {
      await property(numRuns, cardVisits(world(target()), allowLoopback), async (v) => {
        const before = traffic();
        const r = await visit(target().url, v);
        let url = '';
        try {
          url = String((JSON.parse(v.body ?? '') as { url?: unknown }).url ?? '');
        } catch {}
        checkAnswer(r, before, !allowLoopback, [url]);
        if (/"(card|jwks)":\[{65}/.test(v.body ?? '') && v.headers['content-type']?.includes('json')) {
          expect(r.status).toBe(422);
        }
      });
    });
  }

  it('Host, Origin and Sec-Fetch-Site: a rebinding or cross-site page gets 403 and reaches nothing', async () => {
    const w = world(open);
    const ownHosts = new Set([`127.0.0.1:${w.playground}`, `localhost:${w.playground}`, `[::1]:${w.playground}`]);
    await property(numRuns, browserContexts(w), async (c) => {
      const api = c.route.includes('/api/');
      const headers: Record<string, string> = { host: c.host, 'content-type': 'application/json' };
      if (c.origin !== undefined) headers.origin = c.origin;
      if (c.site !== undefined) headers['sec-fetch-site'] = c.site;
      if (c.apiHeader) headers['x-playground-api'] = '1';
      if (c.route.endsWith('/proxy')) {
        Object.assign(headers, { 'x-playground-target': `${agent.url}/`, 'x-playground-card': w.agentCard });
      }
      const body = c.route.endsWith('/card')
        ? JSON.stringify({ url: w.agentCard })
        : '{"jsonrpc":"2.0","id":1,"method":"GetTask","params":{"id":"t"}}';
      const before = traffic();
      const withBody = c.method === 'POST' || c.method === 'PUT'; // Node itself refuses an OPTIONS with a body
      const r = await visit(open.url, { method: c.method, path: c.route, headers, ...(withBody ? { body } : {}) });
      const hostOk = ownHosts.has(c.host);
      const sameOrigin = c.origin === undefined ? c.apiHeader : c.origin === `http://${c.host}`;
      const allowed =
        hostOk && (!api || c.method !== 'POST' || (sameOrigin && [undefined, 'same-origin', 'none'].includes(c.site)));
      checkAnswer(r, before, !(allowed && api && c.method === 'POST'));
      if (!allowed) expect([400, 403], `${r.status} ${r.body}`).toContain(r.status);
      else expect(r.status, r.body).toBe(c.method === (api ? 'POST' : 'GET') ? 200 : 405);
    });
  });

  it('slow, never-answering and endless remotes: every fetch of theirs ends, bounded in time and bytes', async () => {
    const w = world(open);
    const runs = Math.max(3, Math.ceil(numRuns / 3));
    const cards = fc.constantFrom(...w.slow).map((u) => `${u}/card.json`);
    await property(runs, fc.tuple(cards, fc.boolean()), async ([card, viaProxy]) => {
      const before = traffic();
      const r = viaProxy
        ? await visit(open.url, {
            method: 'POST',
            path: '/playground/api/proxy',
            headers: {
              ...sameOrigin(w),
              'content-type': 'application/json',
              'x-playground-target': card,
              'x-playground-card': card,
            },
            body: '{}',
          })
        : await visit(open.url, {
            method: 'POST',
            path: '/playground/api/card',
            headers: { ...sameOrigin(w), 'content-type': 'application/json' },
            body: JSON.stringify({ url: card }),
          });
      checkAnswer(r, before, false);
      expect([502, 504], r.body).toContain(r.status);
    });
    // Strict: the same remotes are loopback, refused without a connection.
    const before = traffic();
    const refused = await visit(strict.url, {
      method: 'POST',
      path: '/playground/api/card',
      headers: { ...sameOrigin(world(strict)), 'content-type': 'application/json' },
      body: JSON.stringify({ url: `${w.slow[0]}/card.json` }),
    });
    checkAnswer(refused, before, true);
    expect(refused.status).toBe(403);
  });

  it('is still up and serving its page afterwards', async () => {
    for (const pg of [strict, open]) {
      const r = await visit(pg.url, { method: 'GET', path: '/playground', headers: {} });
      expect(r.status).toBe(200);
    }
    expect(cardUrls).toBeDefined();
  });
});
