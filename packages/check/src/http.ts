import { createParser } from 'eventsource-parser';

/** What an agent answered, read within the time and size bounds. */
export interface Answer {
  status: number;
  headers: Headers;
  /** The body as text (at most `maxBytes`; a longer body is cut and `truncated` set). */
  text: string;
  truncated: boolean;
  /** The body parsed as JSON, or undefined when it is not JSON. */
  json: unknown;
  /** For `text/event-stream` answers: the `data` of the events read (the first `maxEvents`, see `Probe`). */
  events?: string[];
  /** An SSE stream still open when the time ran out, after at least one event: `events` holds what came. */
  streamOpen?: boolean;
}

/** Raised when the agent does not answer (connection refused, reset, or no answer in time). */
export class NoAnswer extends Error {
  constructor(
    message: string,
    readonly timedOut: boolean,
  ) {
    super(message);
    this.name = 'NoAnswer';
  }
}

export interface Probe {
  method?: string;
  headers?: Record<string, string>;
  body?: string | Uint8Array<ArrayBuffer>;
  /** Stop reading after this many bytes (default 1 MiB): a hostile agent may stream forever. */
  maxBytes?: number;
  /** For SSE answers: stop after this many events (default 1; the rest of the stream is dropped). */
  maxEvents?: number;
  timeoutMs: number;
  signal?: AbortSignal | undefined;
}

const DEFAULT_MAX_BYTES = 1024 * 1024;

/** One HTTP exchange, bounded in time (connect, headers and body together) and in bytes read. */
export async function request(url: string, probe: Probe): Promise<Answer> {
  const timeout = AbortSignal.timeout(probe.timeoutMs);
  const signal = probe.signal ? AbortSignal.any([timeout, probe.signal]) : timeout;
  const seconds = `${Math.round(probe.timeoutMs / 100) / 10} s`;
  try {
    const response = await fetch(url, {
      method: probe.method ?? 'GET',
      headers: probe.headers ?? {},
      ...(probe.body !== undefined && { body: probe.body }),
      redirect: 'manual',
      signal,
    });
    const sse = (response.headers.get('content-type') ?? '').toLowerCase().startsWith('text/event-stream');
    const { text, truncated, events } = await readBody(response, probe, sse);
    return {
      status: response.status,
      headers: response.headers,
      text,
      truncated,
      json: parseJson(text),
      ...(sse && { events }),
    };
  } catch (error) {
    if (timeout.aborted) throw new NoAnswer(`no answer within ${seconds}`, true);
    if (probe.signal?.aborted) throw new NoAnswer('stopped', true);
    throw new NoAnswer(describeNetworkError(error), false);
  }
}

async function readBody(
  response: Response,
  probe: Probe,
  sse: boolean,
): Promise<{ text: string; truncated: boolean; events: string[]; open?: boolean }> {
  const max = probe.maxBytes ?? DEFAULT_MAX_BYTES;
  const maxEvents = probe.maxEvents ?? 1;
  const events: string[] = [];
  const parser = createParser({ onEvent: (event) => void events.push(event.data) });
  const decoder = new TextDecoder();
  let text = '';
  let bytes = 0;
  if (!response.body) return { text, truncated: false, events };
  const reader = response.body.getReader();
  try {
    for (let next = await reader.read(); !next.done; next = await reader.read()) {
      bytes += next.value.byteLength;
      const chunk = decoder.decode(next.value, { stream: true });
      text += chunk;
      if (sse) parser.feed(chunk);
      if (bytes > max) return { text: text.slice(0, max), truncated: true, events };
      if (sse && events.length >= maxEvents) return { text, truncated: false, events };
    }
  } catch (error) {
    // A stream that is still open when the time is up: what came is the answer (a task may run for long).
    if (sse && events.length > 0) return { text, truncated: false, events, open: true };
    throw error;
  } finally {
    // Leaves the rest of a stream unread: the agent sees the connection close.
    void reader.cancel().catch(() => {});
  }
  return { text: text + decoder.decode(), truncated: false, events };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** Node's fetch says `fetch failed`; its cause says why (ECONNREFUSED, a reset…). */
function describeNetworkError(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } })?.cause;
  if (cause?.code === 'ECONNREFUSED') return 'connection refused';
  if (cause?.code === 'ECONNRESET' || cause?.code === 'UND_ERR_SOCKET')
    return 'the connection was closed before an answer';
  return cause?.message ?? (error instanceof Error ? error.message : String(error));
}
