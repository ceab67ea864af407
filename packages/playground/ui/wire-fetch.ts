import type { WireLog } from './wire-log.js';

/** What the proxy needs to know of the connection: the card URL (it calls only that agent) and the user's headers. */
export interface ProxyContext {
  cardUrl: string;
  /** Names of the headers the user typed (Authorization and custom ones): the only non-A2A headers forwarded. */
  userHeaders: string[];
}

/**
 * The page's `fetch` for agent calls: logs each request and response (JSON bodies in full; SSE frames are logged as
 * they are read), and sends calls to another origin through the playground's SSRF-guarded proxy instead of from the
 * browser. A proxy refusal (not the agent's answer) becomes an error with the playground's message.
 */
export function createWireFetch(log: WireLog, proxyUrl: string, context: () => ProxyContext): typeof fetch {
  return async (input, init = {}) => {
    const request = new Request(input, init);
    const url = request.url;
    const headers = headerRecord(request.headers);
    const body = request.method === 'GET' || request.method === 'HEAD' ? undefined : await request.text();
    log.add({ kind: 'request', method: request.method, url, headers, ...(body !== undefined ? { body } : {}) });
    const direct = new URL(url).origin === location.origin;
    const { cardUrl, userHeaders } = context();
    const proxied = {
      ...headers,
      'x-playground-api': '1',
      'x-playground-target': url,
      'x-playground-method': request.method,
      'x-playground-card': cardUrl,
      'x-playground-headers': userHeaders.join(', '),
    };
    const sent: RequestInit = {
      method: direct ? request.method : 'POST',
      headers: direct ? headers : proxied,
      ...(body !== undefined ? { body } : {}),
      ...(init.signal ? { signal: init.signal } : {}),
    };
    let response: Response;
    try {
      response = await fetch(direct ? url : proxyUrl, sent);
    } catch (error) {
      if ((error as Error).name !== 'AbortError') log.add({ kind: 'error', url, body: String(error) });
      throw error;
    }
    const stream = (response.headers.get('content-type') ?? '').startsWith('text/event-stream');
    const text = stream ? undefined : await response.clone().text();
    log.add({
      kind: 'response',
      status: response.status,
      url,
      headers: headerRecord(response.headers),
      ...(text !== undefined ? { body: text } : {}),
    });
    if (!direct && !response.headers.has('x-playground-proxied')) {
      let message = `The playground's proxy answered ${response.status}`;
      try {
        message = (JSON.parse(text ?? '') as { error?: string }).error ?? message;
      } catch {
        // not the proxy's JSON: keep the status
      }
      throw new Error(message);
    }
    return response;
  };
}

function headerRecord(headers: Headers): Record<string, string> {
  const out: Record<string, string> = {};
  headers.forEach((value, key) => {
    out[key] = value;
  });
  return out;
}
