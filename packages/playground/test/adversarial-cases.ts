import fc from 'fast-check';

// Generated requests of an anonymous visitor to the playground's API (see adversarial.e2e.test.ts): every one is a
// request a stranger can send, built from the places a relay must not reach and the ways a browser gets tricked.

/** What a case may point at: the servers the test started, by port. */
export interface World {
  /** The playground under test, `127.0.0.1:port`. */
  playground: number;
  /** The legitimate remote agent (`http://127.0.0.1:port`) and its card URL. */
  agent: string;
  agentCard: string;
  /** Raw listeners that must never receive a byte. */
  sinks: number[];
  /** Remotes that trickle, flood or never answer (card URLs only where the policy allows their host). */
  slow: string[];
}

export interface Visit {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
}

/** 127.0.0.1 in every notation a URL parser or an IPv6 stack accepts, plus the loopback names. */
export const LOOPBACK_FORMS = [
  '127.0.0.1',
  '2130706433',
  '0x7f000001',
  '0x7f.0.0.1',
  '0177.0.0.1',
  '127.1',
  '127.0.0.1.',
  '[::1]',
  '[::ffff:127.0.0.1]',
  '[::ffff:7f00:1]',
  '[0:0:0:0:0:ffff:7f00:1]',
  '[::127.0.0.1]',
  '[64:ff9b::7f00:1]',
  '[2002:7f00:1::]',
  '0.0.0.0',
  '0',
  '[::]',
  'localhost',
  'LOCALHOST.',
  'api.localhost',
];

/** Private, link-local (cloud metadata), CGNAT and other non-public addresses, and names that are not the agent's. */
export const OTHER_FORMS = [
  '10.0.0.1',
  '192.168.1.1',
  '172.16.0.1',
  '100.64.0.1',
  '169.254.169.254',
  '0xa9fea9fe',
  '[::ffff:169.254.169.254]',
  '[fd00::1]',
  '[fe80::1]',
  '[fd00:ec2::254]',
];
const NAMES = ['metadata.google.internal', 'rebind.attacker.test', 'example.com', 'evil.test'];
const PATHS = ['/', '', '/.well-known/agent-card.json', '/admin', '/a%2fb', '/%2e%2e/etc/passwd', '/x?y=1', '/a%5cb'];
const SCHEMES = ['http:', 'http:', 'https:', 'file:', 'gopher:', 'ftp:', 'ws:'];

const withPort = (host: string, port: number) => `${host}:${port}`;

/** A URL on one of `hosts` at one of `ports`, maybe with credentials or another scheme. */
const urlOn = (hosts: string[], ports: number[]) =>
  fc
    .record({
      scheme: fc.constantFrom(...SCHEMES),
      userinfo: fc.constantFrom('', '', '', 'user:pw@'),
      host: fc.constantFrom(...hosts),
      port: fc.constantFrom(...ports),
      path: fc.constantFrom(...PATHS),
    })
    .map((u) => `${u.scheme}//${u.userinfo}${withPort(u.host, u.port)}${u.path}`);

/** Proxy targets: every listener and famous port in every notation, names not in the card, and the agent itself. */
export function targets(w: World): fc.Arbitrary<string> {
  const ports = [...w.sinks, Number(new URL(w.agent).port), w.playground, 25, 22, 6379, 80, 443];
  return fc.oneof(
    urlOn([...LOOPBACK_FORMS, ...OTHER_FORMS, ...NAMES], ports),
    fc.constantFrom(...PATHS).map((p) => `${w.agent}${p}`),
    fc.constant(w.agentCard),
    fc.constantFrom('', 'not a url', 'javascript:alert(1)', '//127.0.0.1/', `http://127.0.0.1:${w.sinks[0]}\\@x/`),
  );
}

/**
 * Card URLs: with the default policy anything, sinks included (all refused); with 127.0.0.1 allow-listed only the
 * agent, the slow remotes and refused forms (an allow-listed host's ports are reachable for card fetches by design).
 */
export function cardUrls(w: World, allowLoopback: boolean): fc.Arbitrary<string> {
  if (!allowLoopback) return urlOn([...LOOPBACK_FORMS, ...OTHER_FORMS], [...w.sinks, Number(new URL(w.agent).port)]);
  return fc.oneof(
    { weight: 3, arbitrary: fc.constant(w.agentCard) },
    { weight: 1, arbitrary: fc.constantFrom(...w.slow).map((u) => `${u}/card.json`) },
    { weight: 1, arbitrary: urlOn([...OTHER_FORMS, '[::1]', 'localhost', 'api.localhost'], [...w.sinks, 80]) },
  );
}

const PROXY_METHODS = ['POST', 'POST', 'GET', 'DELETE', 'PUT', 'PATCH', 'TRACE', 'CONNECT', 'get', 'PROPFIND', ''];
const USER_HEADER_LISTS = [
  '',
  'authorization',
  'x-api-key',
  'cookie, host, x-forwarded-for, proxy-authorization, content-length, transfer-encoding',
  'x-custom, x-playground-target',
  Array.from({ length: 40 }, (_, i) => `x-h${i}`).join(','),
];
const CONTENT_TYPES = [
  'application/json',
  'application/a2a+json; charset=utf-8',
  'text/plain',
  'multipart/form-data; boundary=x',
  'application/x-www-form-urlencoded',
];
const BODIES = [
  '{"jsonrpc":"2.0","id":1,"method":"GetTask","params":{"id":"nope"}}',
  'HELO x\r\nMAIL FROM:<a@b>\r\n',
  'GET / HTTP/1.1\r\nHost: x\r\n\r\n',
  '',
];

/** The headers a page of the playground would send on its own origin, which the API cases start from. */
export const sameOrigin = (w: World) => ({
  host: `127.0.0.1:${w.playground}`,
  origin: `http://127.0.0.1:${w.playground}`,
  'sec-fetch-site': 'same-origin',
});

/** Proxy calls with the page's own Host and Origin: any target, card, method, headers and body. */
export function proxyVisits(w: World, allowLoopback: boolean): fc.Arbitrary<Visit> {
  return fc
    .record({
      target: targets(w),
      card: fc.option(cardUrls(w, allowLoopback), { nil: undefined, freq: 6 }),
      method: fc.constantFrom(...PROXY_METHODS),
      listed: fc.constantFrom(...USER_HEADER_LISTS),
      contentType: fc.constantFrom(...CONTENT_TYPES),
      body: fc.constantFrom(...BODIES),
      big: fc.boolean().chain((b) => (b ? fc.integer({ min: 60_000, max: 70_000 }) : fc.constant(0))),
    })
    .map((c) => ({
      method: 'POST',
      path: '/playground/api/proxy',
      headers: {
        ...sameOrigin(w),
        'content-type': c.contentType,
        'x-playground-target': c.target,
        ...(c.card !== undefined ? { 'x-playground-card': c.card } : {}),
        'x-playground-method': c.method,
        'x-playground-headers': c.listed,
        authorization: 'Bearer visitor',
        'x-api-key': 'secret',
        cookie: 'session=playground-site',
        'x-forwarded-for': '10.0.0.1',
        'x-custom': 'yes',
        'proxy-authorization': 'Basic eA==',
      },
      body: c.big ? `{"pad":"${'x'.repeat(c.big)}"}` : c.body,
    }));
}

/** `/api/card` with any card URL, or a card of any depth and size, or no JSON at all. */
export function cardVisits(w: World, allowLoopback: boolean): fc.Arbitrary<Visit> {
  const deep = fc.integer({ min: 60, max: 12_000 }).map((d) => `${'['.repeat(d)}${']'.repeat(d)}`);
  const body = fc.oneof(
    cardUrls(w, allowLoopback).map((url) => JSON.stringify({ url, headers: { cookie: 'x', host: 'evil.test' } })),
    deep.map((d) => `{"url":"http://example.test/card","card":${d}}`),
    deep.map((d) => `{"url":"http://example.test/card","card":{"signatures":[]},"jwks":${d}}`),
    fc.constantFrom('', 'null', '[]', '{"url":5}', '{', `{"url":"x","card":"${'y'.repeat(1_100_000)}"}`),
  );
  return fc.record({ body, contentType: fc.constantFrom(...CONTENT_TYPES) }).map((c) => ({
    method: 'POST',
    path: '/playground/api/card',
    headers: { ...sameOrigin(w), 'content-type': c.contentType },
    body: c.body,
  }));
}

/** What a browser sends from a rebinding page, a cross-site form or fetch, or a non-browser client. */
export function browserContexts(w: World) {
  const own = `127.0.0.1:${w.playground}`;
  const hosts = [
    own,
    own,
    `localhost:${w.playground}`,
    `[::1]:${w.playground}`,
    `rebind.attacker.test:${w.playground}`,
  ];
  hosts.push(`127.0.0.1.nip.io:${w.playground}`, `evil.test@127.0.0.1:${w.playground}`, 'attacker.test');
  return fc.record({
    host: fc.constantFrom(...hosts),
    origin: fc.option(
      fc.constantFrom(
        `http://${own}`,
        `http://${own}`,
        `http://rebind.attacker.test:${w.playground}`,
        'http://evil.test',
        'null',
        `http://localhost:${w.playground}`,
        `http://127.0.0.1:${w.playground + 1}`,
      ),
      { nil: undefined },
    ),
    site: fc.option(fc.constantFrom('same-origin', 'same-site', 'cross-site', 'none'), { nil: undefined }),
    apiHeader: fc.boolean(),
    route: fc.constantFrom('/playground/api/proxy', '/playground/api/card', '/playground', '/playground/app.js'),
    method: fc.constantFrom('POST', 'POST', 'GET', 'OPTIONS', 'PUT'),
  });
}
