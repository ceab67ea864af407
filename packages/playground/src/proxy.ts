import { json, readRequestBody } from './limits.js';
import { RefusedTargetError, type RemoteAgents } from './remote.js';

/** The header naming the remote URL a proxied request goes to. */
export const TARGET_HEADER = 'x-playground-target';

// Not forwarded: the browser's own connection, cookies and origin (of the playground's site, not the agent's).
const DROPPED_REQUEST = new Set([
  'host',
  'connection',
  'keep-alive',
  'transfer-encoding',
  'te',
  'upgrade',
  'content-length',
  'cookie',
  'origin',
  'referer',
  'accept-encoding',
  'proxy-authorization',
  'forwarded',
  TARGET_HEADER,
]);
const KEPT_RESPONSE = ['content-type', 'cache-control', 'www-authenticate', 'retry-after', 'allow'];

/**
 * Forwards one A2A call of the page to a remote agent: `POST {base}/api/proxy` with the agent's URL in
 * `X-Playground-Target`, the call's method in `X-Playground-Method` (GET or POST), its headers and body as is.
 * The answer comes back as the agent sent it (SSE streamed chunk by chunk, never buffered). The custom header makes
 * every cross-site use a CORS preflight, which the playground never answers, so other sites cannot use the proxy.
 */
export async function proxyRequest(request: Request, remote: RemoteAgents, maxBodyBytes: number): Promise<Response> {
  const target = request.headers.get(TARGET_HEADER);
  if (!target) return json(400, { error: `Missing ${TARGET_HEADER} header` });
  const method = (request.headers.get('x-playground-method') ?? 'POST').toUpperCase();
  if (method !== 'GET' && method !== 'POST') return json(400, { error: `Method ${method} is not proxied` });
  const headers = new Headers();
  request.headers.forEach((value, key) => {
    if (!DROPPED_REQUEST.has(key) && !key.startsWith('x-playground-') && !key.startsWith('sec-'))
      headers.set(key, value);
  });
  let body: Uint8Array | undefined;
  if (method === 'POST') {
    body = await readRequestBody(request, maxBodyBytes);
    if (!body) return json(413, { error: `The request body is larger than ${maxBodyBytes} bytes` });
  }
  const upstream = new AbortController();
  let response: Response;
  try {
    response = await remote.request(
      target,
      { method, headers, ...(body ? { body: body as BodyInit } : {}) },
      upstream.signal,
    );
  } catch (error) {
    if (error instanceof RefusedTargetError) return json(error.status, { error: error.message });
    throw error;
  }
  const out = new Headers({ 'x-playground-proxied': '1', 'cache-control': 'no-store' });
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
