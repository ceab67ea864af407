import type { Listening } from '@a2a/adapter-testsuite';
import { type A2AHttpHandler, createA2AHandler, signAgentCard } from '@a2a/core';
import { exportJWK, generateKeyPair } from 'jose';
import type { CheckOptions } from '../src/index.js';
import { type FetchHandler, serveFetch } from './fetch-server.js';

// The gallery: one small agent per defect, each core's handler with one thing broken in front of it, so every other
// behaviour is right and only the check meant for the defect may fail.

const CARD = {
  name: 'Gallery agent',
  description: 'Answers every message with "done".',
  version: '1.0.0',
  capabilities: { streaming: true },
  skills: [{ id: 'answer', name: 'Answer', description: 'Answers "done".', tags: ['test'] }],
};

const SECURED = {
  ...CARD,
  securitySchemes: { bearer: { httpAuthSecurityScheme: { scheme: 'Bearer' } } },
  securityRequirements: [{ schemes: { bearer: { list: [] } } }],
};

export const TOKEN = 'Bearer gallery-token';

export function galleryHandler(secured = false): A2AHttpHandler {
  return createA2AHandler({
    agentCard: secured ? SECURED : CARD,
    executor: { execute: (ctx) => ctx.reply('done') },
    ...(secured && {
      context: (request: Request) => (request.headers.get('authorization') === TOKEN ? { user: { id: 'tester' } } : {}),
    }),
  });
}

/** The JSON-RPC method and params of a request, without consuming it. */
async function jsonRpc(request: Request): Promise<{ id?: unknown; method?: string; params?: Record<string, unknown> }> {
  if (request.method !== 'POST') return {};
  try {
    return (await request.clone().json()) as { method?: string };
  } catch {
    return {};
  }
}

const rpcAnswer = (id: unknown, body: Record<string, unknown>) => Response.json({ jsonrpc: '2.0', id, ...body });

/** The headers of a response whose body is replaced (its length no longer holds). */
const headersOf = (response: Response) => {
  const headers = new Headers(response.headers);
  headers.delete('content-length');
  return headers;
};

export interface BrokenAgent {
  defect: string;
  /** The one check that must fail. */
  caughtBy: string;
  /** What its failure message must say. */
  message: RegExp;
  options?: CheckOptions;
  start(): Promise<Listening>;
}

const broken =
  (handler: (a2a: A2AHttpHandler) => FetchHandler, secured = false) =>
  () =>
    serveFetch(handler(galleryHandler(secured)));

/** A URL nothing listens on: a port taken and released. */
export async function closedUrl(): Promise<string> {
  const server = await serveFetch(async () => new Response());
  await server.close();
  return `${server.url}/`;
}

export const BROKEN_AGENTS: BrokenAgent[] = [
  {
    defect: 'GetTask of an unknown id answers -32603 instead of -32001',
    caughtBy: 'jsonrpc.task-not-found.get',
    message: /expected -32001 TaskNotFound, got -32603/,
    start: broken((a2a) => async (request) => {
      const { id, method, params } = await jsonRpc(request);
      if (method === 'GetTask' && typeof params?.id === 'string' && request.headers.get('a2a-version') === '1.0')
        return rpcAnswer(id, { error: { code: -32603, message: 'Internal error' } });
      return a2a.fetch(request);
    }),
  },
  {
    defect: 'a 401 without WWW-Authenticate',
    caughtBy: 'security.www-authenticate',
    message: /answered 401 without a WWW-Authenticate header/,
    options: { headers: { Authorization: TOKEN } },
    start: broken(
      (a2a) => async (request) => {
        const response = await a2a.fetch(request);
        if (response.status !== 401) return response;
        const headers = new Headers(response.headers);
        headers.delete('www-authenticate');
        return new Response(response.body, { status: 401, headers });
      },
      true,
    ),
  },
  {
    defect: 'the card lists an interface nothing answers at',
    caughtBy: 'card.interfaces-reachable',
    message: /JSONRPC http:\/\/127\.0\.0\.1:\d+\/: connection refused/,
    async start() {
      const a2a = galleryHandler();
      // Listed after the real interfaces, so the binding checks use the real one.
      a2a.addInterface({ url: await closedUrl(), protocolBinding: 'JSONRPC', protocolVersion: '1.0' });
      return serveFetch((request) => a2a.fetch(request));
    },
  },
  {
    defect: 'a v0.3 interface is declared, but v0.3 clients get a card without url',
    caughtBy: 'card.v03-compat',
    message: /not a v0\.3 card: url \(string\) is missing/,
    start: broken((a2a) => async (request) => {
      const response = await a2a.fetch(request);
      const { pathname } = new URL(request.url);
      if (pathname !== '/.well-known/agent-card.json' || request.headers.has('a2a-version')) return response;
      const { url: _dropped, ...card } = (await response.json()) as Record<string, unknown>;
      return Response.json(card, { headers: headersOf(response) });
    }),
  },
  {
    defect: 'the card was edited after it was signed',
    caughtBy: 'card.signature',
    message: /no valid signature: signature 0 \(kid gallery\)/,
    start: () => signedAgent(true),
  },
  {
    defect: 'SendStreamingMessage answers plain JSON, not SSE',
    caughtBy: 'send.streaming',
    message: /expected Content-Type text\/event-stream, got HTTP 200/,
    options: { send: 'hello' },
    start: broken((a2a) => async (request) => {
      const { method, ...rest } = await jsonRpc(request);
      if (method !== 'SendStreamingMessage') return a2a.fetch(request);
      const body = JSON.stringify({ ...rest, method: 'SendMessage' });
      return a2a.fetch(new Request(request.url, { method: 'POST', headers: request.headers, body }));
    }),
  },
  {
    defect: 'a body over 1 MiB makes it answer 500',
    caughtBy: 'hostile.oversize-body',
    message: /answered HTTP 500 .*must be refused with a 4xx, not a server error/,
    options: { hostile: true },
    start: broken((a2a) => async (request) => {
      const size = (await request.clone().arrayBuffer()).byteLength;
      return size > 1024 * 1024 ? new Response('{"oops":"out of memory"}', { status: 500 }) : a2a.fetch(request);
    }),
  },
  {
    defect: 'JSON nested 20 000 deep makes it answer 500',
    caughtBy: 'hostile.deep-json',
    message: /answered HTTP 500 .*must be refused with a 4xx, not a server error/,
    options: { hostile: true },
    start: broken((a2a) => async (request) => {
      const text = request.method === 'POST' ? await request.clone().text() : '';
      return text.includes('{"a":'.repeat(1000))
        ? new Response('RangeError: Maximum call stack size exceeded', { status: 500 })
        : a2a.fetch(request);
    }),
  },
  {
    defect: 'CancelTask never answers',
    caughtBy: 'jsonrpc.task-not-found.cancel',
    message: /^no answer within 1 s$/,
    options: { timeoutMs: 1000 },
    start: broken((a2a) => async (request) => {
      const { method } = await jsonRpc(request);
      return method === 'CancelTask' ? undefined : a2a.fetch(request);
    }),
  },
  {
    defect: 'push configs are listed though push is not declared',
    caughtBy: 'capabilities.push-refused',
    message: /JSONRPC ListTaskPushNotificationConfigs: expected -32003 PushNotificationNotSupported, got a result/,
    start: broken((a2a) => async (request) => {
      const { id, method } = await jsonRpc(request);
      if (method === 'ListTaskPushNotificationConfigs')
        return rpcAnswer(id, { result: { configs: [], nextPageToken: '' } });
      return a2a.fetch(request);
    }),
  },
  {
    defect: 'an HTTP+JSON 404 without the ErrorInfo detail',
    caughtBy: 'http+json.task-not-found.get',
    message: /no google\.rpc\.ErrorInfo in error\.details/,
    start: broken((a2a) => async (request) => {
      const response = await a2a.fetch(request);
      if (request.method !== 'GET' || response.status !== 404) return response;
      const body = (await response.json()) as { error: Record<string, unknown> };
      delete body.error.details;
      return Response.json(body, { status: 404, headers: headersOf(response) });
    }),
  },
];

/** An agent whose card is signed with a key published at `/jwks.json` (`tampered`: then edited). */
export async function signedAgent(tampered: boolean): Promise<Listening> {
  const a2a = galleryHandler();
  const { privateKey, publicKey } = await generateKeyPair('ES256', { extractable: true });
  const publicJwk = { ...(await exportJWK(publicKey)), kid: 'gallery', alg: 'ES256' };
  return serveFetch(async (request) => {
    const { origin, pathname } = new URL(request.url);
    if (pathname === '/jwks.json') return Response.json({ keys: [publicJwk] });
    const response = await a2a.fetch(request);
    if (pathname !== '/.well-known/agent-card.json' || response.status !== 200) return response;
    const card = (await response.json()) as { description: string };
    const signed = await signAgentCard(card, [
      { kid: 'gallery', alg: 'ES256', privateKey, jku: `${origin}/jwks.json` },
    ]);
    if (tampered) signed.description = `${signed.description} (edited after signing)`;
    return Response.json(signed, { headers: headersOf(response) });
  });
}
