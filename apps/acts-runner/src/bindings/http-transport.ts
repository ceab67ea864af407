import { createParser } from 'eventsource-parser';
import { headerRecord } from './binding.js';

/** The HTTP underneath JSON-RPC, HTTP+JSON, the card and raw steps: fetch, one JSON body or an SSE stream. */

export interface HttpAnswer {
  status: number;
  headers: Record<string, string>;
  text: string;
  /** The body as JSON; undefined when empty or not JSON. */
  json: unknown;
}

export interface HttpRequest {
  method: string;
  headers?: Record<string, string>;
  /** A value to send as JSON, or a string sent as is. */
  body?: unknown;
}

const bodyOf = (body: unknown) =>
  body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body);

const parseJson = (text: string): unknown => {
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
};

export async function httpRequest(url: string, request: HttpRequest, timeoutMs = 30_000): Promise<HttpAnswer> {
  const response = await fetch(url, {
    method: request.method,
    headers: request.headers ?? {},
    body: bodyOf(request.body) ?? null,
    signal: AbortSignal.timeout(timeoutMs),
  });
  const text = await response.text();
  return { status: response.status, headers: headerRecord(response.headers), text, json: parseJson(text) };
}

export interface SseAnswer {
  status: number;
  headers: Record<string, string>;
  /** `data:` of each event, parsed as JSON (undefined when not JSON), with the SSE event name. */
  events: { event: string | undefined; data: unknown }[];
  /** Not an event stream: the plain answer. */
  plain?: HttpAnswer;
  /** Cut at the timeout or the event cap rather than closed by the server. */
  cut: boolean;
}

/** Reads an SSE answer until the server closes it, `timeoutMs` passes, or `maxEvents` arrived. */
export async function sseRequest(
  url: string,
  request: HttpRequest,
  timeoutMs: number,
  maxEvents = Number.POSITIVE_INFINITY,
): Promise<SseAnswer> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  try {
    const response = await fetch(url, {
      method: request.method,
      headers: { accept: 'text/event-stream', ...(request.headers ?? {}) },
      body: bodyOf(request.body) ?? null,
      signal: controller.signal,
    });
    const headers = headerRecord(response.headers);
    if (!(headers['content-type'] ?? '').startsWith('text/event-stream') || !response.body) {
      const text = await response.text();
      return {
        status: response.status,
        headers,
        events: [],
        cut: false,
        plain: { status: response.status, headers, text, json: parseJson(text) },
      };
    }
    const events: SseAnswer['events'] = [];
    const parser = createParser({ onEvent: (e) => events.push({ event: e.event, data: parseJson(e.data) }) });
    const decoder = new TextDecoder();
    let cut = false;
    try {
      for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
        parser.feed(decoder.decode(chunk, { stream: true }));
        if (events.length >= maxEvents) {
          cut = true;
          controller.abort();
          break;
        }
      }
    } catch (error) {
      if (!controller.signal.aborted) throw error;
      cut = true;
    }
    return { status: response.status, headers, events, cut };
  } finally {
    clearTimeout(timer);
  }
}
