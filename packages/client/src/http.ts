import type { RequestInfo, TransportOptions } from './options.js';

/** The protocol version this client speaks (sent as `A2A-Version`). */
export const PROTOCOL_VERSION = '1.0';

/** A fetch with the client's headers: `A2A-Version`, the `headers` option (static or hook), then the call's own. */
export async function send(
  transport: TransportOptions,
  info: RequestInfo,
  init: RequestInit & { callHeaders?: HeadersInit | undefined },
  version: string = PROTOCOL_VERSION,
): Promise<Response> {
  const headers = new Headers(init.headers);
  headers.set('a2a-version', version);
  const extra = typeof transport.headers === 'function' ? await transport.headers(info) : transport.headers;
  for (const source of [extra, init.callHeaders]) {
    if (!source) continue;
    new Headers(source).forEach((value, name) => {
      headers.set(name, value);
    });
  }
  const { callHeaders: _, ...rest } = init;
  const doFetch = transport.fetch ?? globalThis.fetch;
  return doFetch(info.url, { ...rest, headers });
}

/** The body as JSON, or `undefined` when it is empty or not JSON. */
export async function readJson(response: Response): Promise<unknown> {
  const text = await response.text();
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

export const isEventStream = (response: Response): boolean =>
  (response.headers.get('content-type') ?? '').toLowerCase().startsWith('text/event-stream');
