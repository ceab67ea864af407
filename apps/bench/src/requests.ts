// The exact requests of every scenario (the peer SDK bench's bodies, so numbers compare apples to apples).
export type LoadScenario = 'card' | 'send' | 'stream' | 'compat' | 'raw';

export interface RequestSpec {
  method: 'GET' | 'POST';
  path: string;
  headers: Record<string, string>;
  body?: (n: number) => string;
  /** The answer is a JSON-RPC envelope: an `"error":` member counts as a failure. */
  jsonRpc?: boolean;
  /** The answer is an SSE stream that must carry exactly this many data frames. */
  sseEvents?: number;
}

const v1 = {
  'content-type': 'application/json',
  accept: 'application/json',
  'a2a-version': '1.0',
};
/** v0.3 requests carry no A2A-Version header (absent means 0.3). */
const v03 = { 'content-type': 'application/json', accept: 'application/json' };

export function requestSpecs(paths: { jsonRpc: string; card: string; raw: string }, streamEvents: number, tag: string) {
  const send = (n: number) =>
    `{"jsonrpc":"2.0","id":${n},"method":"SendMessage","params":{"message":{"messageId":"${tag}-${n}","role":"ROLE_USER","parts":[{"text":"hello from bench"}]}}}`;
  const specs: Record<LoadScenario, RequestSpec> = {
    card: {
      method: 'GET',
      path: paths.card,
      headers: { accept: 'application/json' },
    },
    send: {
      method: 'POST',
      path: paths.jsonRpc,
      headers: v1,
      body: send,
      jsonRpc: true,
    },
    raw: { method: 'POST', path: paths.raw, headers: v1, body: send },
    compat: {
      method: 'POST',
      path: paths.jsonRpc,
      headers: v03,
      jsonRpc: true,
      body: (n) =>
        `{"jsonrpc":"2.0","id":${n},"method":"message/send","params":{"message":{"kind":"message","messageId":"${tag}-${n}","role":"user","parts":[{"kind":"text","text":"hello from bench"}]}}}`,
    },
    stream: {
      method: 'POST',
      path: paths.jsonRpc,
      headers: { ...v1, accept: 'text/event-stream' },
      sseEvents: streamEvents,
      body: (n) =>
        `{"jsonrpc":"2.0","id":${n},"method":"SendStreamingMessage","params":{"message":{"messageId":"${tag}-${n}","role":"ROLE_USER","parts":[{"text":"stream:${streamEvents}"}]}}}`,
    },
  };
  return specs;
}

/** Data payloads of complete SSE frames in `text` (frames end with a blank line). */
export function sseData(text: string): string[] {
  const out: string[] = [];
  for (const frame of text.split(/\r?\n\r?\n/)) {
    const data = frame
      .split(/\r?\n/)
      .filter((l) => l.startsWith('data:'))
      .map((l) => l.slice(l.startsWith('data: ') ? 6 : 5));
    if (data.length) out.push(data.join('\n'));
  }
  return out;
}

/** Checks one full answer of a scenario (run once before measuring): the load loop only counts frames/errors. */
export function checkAnswer(
  scenario: LoadScenario,
  status: number,
  text: string,
  streamEvents: number,
): string | undefined {
  if (status !== 200) return `HTTP ${status}: ${text.slice(0, 200)}`;
  if (scenario === 'stream') {
    const frames = sseData(text);
    const last = frames.length
      ? (JSON.parse(frames.at(-1) as string) as {
          result?: { statusUpdate?: { status?: { state?: string } } };
        })
      : undefined;
    if (frames.length !== streamEvents) return `expected ${streamEvents} events, got ${frames.length}`;
    if (last?.result?.statusUpdate?.status?.state !== 'TASK_STATE_COMPLETED')
      return 'last event is not the COMPLETED status';
    return undefined;
  }
  // biome-ignore lint/suspicious/noExplicitAny: a probe reads loosely typed JSON
  const json = JSON.parse(text) as Record<string, any>;
  if (scenario === 'card') return typeof json.name === 'string' ? undefined : 'no card name';
  if (json.error) return `JSON-RPC error ${JSON.stringify(json.error).slice(0, 200)}`;
  if (scenario === 'send' && json.result?.task?.status?.state !== 'TASK_STATE_COMPLETED') return 'no completed task';
  if (scenario === 'compat' && (json.result?.kind !== 'task' || json.result?.status?.state !== 'completed')) {
    return 'no completed v0.3 task';
  }
  if (scenario === 'raw' && typeof json.result?.echo !== 'string') return 'no echo';
  return undefined;
}
