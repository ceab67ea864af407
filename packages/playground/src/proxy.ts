import type { AgentScopes } from './agent-scope.js';
import { forwardedHeaders, isA2AContentType, USER_HEADERS } from './forward-headers.js';
import { json, readRequestBody } from './limits.js';
import { RefusedTargetError, type RemoteAgents } from './remote.js';

/** The header naming the remote URL a proxied request goes to. */
export const TARGET_HEADER = 'x-playground-target';
/** The header naming the card URL of the agent the page is connected to: the proxy calls that agent only. */
export const CARD_HEADER = 'x-playground-card';
/** The methods of A2A's bindings (JSON-RPC: POST; HTTP+JSON: GET, POST, DELETE). */
const METHODS = new Set(['GET', 'POST', 'DELETE']);
const KEPT_RESPONSE = ['content-type', 'cache-control', 'www-authenticate', 'retry-after', 'allow', 'a2a-version'];

/**
 * Forwards one A2A call of the page to the agent it is connected to: `POST {base}/api/proxy` with the agent's URL in
 * `X-Playground-Target`, the card URL in `X-Playground-Card`, the call's method in `X-Playground-Method`, the user's
 * header names in `X-Playground-Headers`. Only a URL the card names is called (see {@link AgentScopes}), only with
 * A2A's methods, JSON content types and headers. The answer comes back as the agent sent it (SSE streamed chunk by
 * chunk, never buffered).
 */
export async function proxyRequest(
  request: Request,
  remote: RemoteAgents,
  scopes: AgentScopes,
  maxBodyBytes: number,
): Promise<Response> {
  const target = request.headers.get(TARGET_HEADER);
  const card = request.headers.get(CARD_HEADER);
  if (!target || !card) return json(400, { error: `Missing ${target ? CARD_HEADER : TARGET_HEADER} header` });
  const method = (request.headers.get('x-playground-method') ?? 'POST').toUpperCase();
  if (!METHODS.has(method)) return json(400, { error: 'Only GET, POST and DELETE are proxied' });
  const withBody = method === 'POST';
  if (withBody && !isA2AContentType(request.headers.get('content-type'))) {
    return json(415, { error: 'The proxy forwards application/json and application/a2a+json bodies only' });
  }
  const forwarded = forwardedHeaders(request, withBody);
  if (!forwarded) return json(400, { error: `Too many headers listed in ${USER_HEADERS}` });
  const upstream = new AbortController();
  let response: Response;
  try {
    const targetUrl = remote.check(target);
    const cardUrl = remote.check(card);
    const route = await scopes.route(targetUrl, cardUrl, forwarded.user);
    let body: Uint8Array | undefined;
    if (withBody) {
      body = await readRequestBody(request, maxBodyBytes);
      if (!body) return json(413, { error: `The request body is larger than ${maxBodyBytes} bytes` });
    } else void request.body?.cancel().catch(() => {});
    response = await remote.request(
      targetUrl.href,
      { method, headers: forwarded.all, ...(body ? { body: body as BodyInit } : {}) },
      route,
      upstream.signal,
    );
  } catch (error) {
    if (error instanceof RefusedTargetError) return json(error.status, { error: error.message });
    throw error;
  }
  // The agent's answer is data for the page's script, never a document of the playground's origin.
  const out = new Headers({
    'x-playground-proxied': '1',
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
    'content-security-policy': "default-src 'none'; sandbox",
  });
  for (const key of KEPT_RESPONSE) {
    const value = response.headers.get(key);
    if (value !== null) out.set(key, value);
  }
  return new Response(relay(response.body, upstream), { status: response.status, headers: out });
}

/** The agent's body, chunk by chunk; when the page goes away (the adapter cancels), the upstream request is aborted. */
function relay(body: ReadableStream<Uint8Array> | null, upstream: AbortController): ReadableStream<Uint8Array> | null {
  if (!body) return null;
  const reader = body.getReader();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done, value } = await reader.read();
        if (done) controller.close();
        else controller.enqueue(value);
      } catch {
        controller.close(); // the agent went away mid-stream: end the page's stream, which resubscribes
      }
    },
    cancel() {
      upstream.abort();
      return reader.cancel().catch(() => {});
    },
  });
}
