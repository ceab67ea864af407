import type { Deadline } from './deadline.js';
import { unreachable } from './errors.js';
import type { RequestInfo, TransportOptions } from './options.js';
import { readCapped } from './read-capped.js';
import { redirectTarget } from './redirect.js';

/** The protocol version this client speaks (sent as `A2A-Version`). */
export const PROTOCOL_VERSION = '1.0';

/**
 * A fetch with the client's headers (`A2A-Version`, the `headers` option, static or hook, then the call's own),
 * under the call's deadline, following only the redirects the `redirects` policy allows.
 */
export async function send(
  transport: TransportOptions,
  info: RequestInfo,
  init: RequestInit & { callHeaders?: HeadersInit | undefined },
  deadline: Deadline,
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
  let url = info.url;
  for (let hops = 0; ; hops++) {
    const target = url;
    const response = await deadline.wait(
      doFetch(target, { ...rest, headers, redirect: 'manual', signal: deadline.signal }).catch((error: unknown) => {
        // Our deadline or the caller's abort: its own reason (deadline.wait answers it); anything else is the network.
        throw deadline.signal.aborted ? error : unreachable(target, error);
      }),
    );
    const release = () => response.body?.cancel().catch(() => {}); // a redirect's body is never read
    let next: string | undefined;
    try {
      next = redirectTarget(response, url, init.method ?? 'GET', hops, transport.redirects);
    } catch (error) {
      release();
      throw error;
    }
    if (next === undefined) return response;
    release();
    url = next;
  }
}

/** The body as JSON (read up to `maxBytes`), or `undefined` when it is empty or not JSON. */
export async function readJson(response: Response, maxBytes: number, deadline: Deadline): Promise<unknown> {
  const text = await readCapped(response.body, maxBytes, deadline);
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

export const isEventStream = (response: Response): boolean =>
  (response.headers.get('content-type') ?? '').toLowerCase().startsWith('text/event-stream');
