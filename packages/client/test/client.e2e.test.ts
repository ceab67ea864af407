import { isA2AError, type StreamResponse } from '@a2a/core';
import { afterEach, describe, expect, it } from 'vitest';
import { A2AClient, type ProtocolBinding, type SseFrame } from '../src/index.js';
import { type Agent, startAgent, userMessage } from './agent.js';
import { cuttingFetch } from './cutting-fetch.js';

let agent: Agent | undefined;
afterEach(async () => {
  await agent?.close();
  agent = undefined;
});

/** What a stream event is, for comparing runs: its kind and state or chunk text. */
const describeEvent = (e: StreamResponse): string => {
  if ('task' in e && e.task) return `task ${e.task.status.state}`;
  if ('message' in e && e.message) return `message ${(e.message.parts[0] as { text?: string }).text}`;
  if ('statusUpdate' in e && e.statusUpdate) return `status ${e.statusUpdate.status.state}`;
  if ('artifactUpdate' in e && e.artifactUpdate)
    return `artifact ${(e.artifactUpdate.artifact.parts[0] as { text?: string }).text}`;
  return 'unknown';
};

const collect = async (stream: AsyncIterable<StreamResponse>) => {
  const out: string[] = [];
  for await (const event of stream) out.push(describeEvent(event));
  return out;
};

const caught = async (p: Promise<unknown>) => {
  try {
    await p;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
};

describe.each<ProtocolBinding>(['JSONRPC', 'HTTP+JSON'])('A2AClient over %s', (binding) => {
  const connect = async (options: Parameters<typeof A2AClient.connect>[1] = {}) => {
    agent ??= await startAgent();
    return A2AClient.connect(agent.url, { bindings: [binding], reconnect: { delayMs: 10 }, ...options });
  };

  it('resolves the card from the origin and uses the preferred binding', async () => {
    const client = await connect();
    expect(client.card.name).toBe('Client test agent');
    expect(client.binding).toBe(binding);
    expect(agent?.requests[0]?.['a2a-version']).toBe('1.0');
  });

  it('sends a message and reads the task back (GetTask, ListTasks)', async () => {
    const client = await connect();
    const sent = await client.sendMessage({ message: userMessage('chunks:2') });
    if (!('task' in sent)) throw new Error('expected a task');
    expect(sent.task.status.state).toBe('TASK_STATE_COMPLETED');
    const task = await client.getTask({ id: sent.task.id, historyLength: 1 });
    expect(task.artifacts?.[0]?.parts.map((p) => (p as { text: string }).text).join('')).toBe('chunk 0chunk 1');
    const list = await client.listTasks({ contextId: sent.task.contextId, pageSize: 10 });
    expect(list.tasks.map((t) => t.id)).toEqual([sent.task.id]);
    const reply = await client.sendMessage({ message: userMessage('hello') });
    expect('message' in reply && reply.message.parts).toEqual([{ text: 'hello to you' }]);
  });

  it('streams every event in order, with the SSE ids as lastEventId', async () => {
    const client = await connect();
    const stream = client.sendStreamingMessage({ message: userMessage('chunks:3') });
    expect(await collect(stream)).toEqual([
      'task TASK_STATE_SUBMITTED',
      'status TASK_STATE_WORKING',
      'artifact chunk 0',
      'artifact chunk 1',
      'artifact chunk 2',
      'status TASK_STATE_COMPLETED',
    ]);
    expect(stream.lastEventId).toBe('6');
    expect(stream.taskId).toMatch(/.+/);
  });

  it('reconnects a broken stream with Last-Event-ID: every event once, in order', async () => {
    agent = await startAgent();
    const frames: SseFrame[] = [];
    const client = await connect({ fetch: cuttingFetch(2), onFrame: (f) => frames.push(f) });
    const stream = client.sendStreamingMessage({ message: userMessage('gate:a;then:b') });
    const seen: string[] = [];
    for await (const event of stream) {
      seen.push(describeEvent(event));
      if (seen.length === 2) agent.gates.get('a').resolve(); // the chunks happen while the client is cut off
      if (seen.length === 4) agent.gates.get('b').resolve(); // replayed; completion arrives live
    }
    expect(seen).toEqual([
      'task TASK_STATE_SUBMITTED',
      'status TASK_STATE_WORKING',
      'artifact chunk 0',
      'artifact chunk 1',
      'status TASK_STATE_COMPLETED',
    ]);
    expect(stream.reconnects).toBe(1);
    expect(stream.lastEventId).toBe('5');
    const resumed = agent.requests.filter((h) => h['last-event-id'] !== undefined);
    expect(resumed.map((h) => h['last-event-id'])).toEqual(['2']);
    expect(frames.map((f) => f.operation)).toContain('SubscribeToTask');
  });

  it('a task that ended while cut off (no log to replay) ends the stream with its final snapshot', async () => {
    agent = await startAgent();
    const client = await connect({ fetch: cuttingFetch(2) });
    const stream = client.sendStreamingMessage({ message: userMessage('gate:a') });
    const seen: string[] = [];
    let final: StreamResponse | undefined;
    for await (const event of stream) {
      seen.push(describeEvent(event));
      final = event;
      if (seen.length === 2) agent.gates.get('a').resolve();
    }
    expect(seen.at(-1)).toBe('task TASK_STATE_COMPLETED');
    expect(final && 'task' in final && final.task.artifacts?.[0]?.parts).toHaveLength(2);
  });

  it('subscribes to a running task, resumes after an event id, and cancels', async () => {
    const client = await connect();
    const sent = await client.sendMessage({
      message: userMessage('gate:never'),
      configuration: { returnImmediately: true },
    });
    if (!('task' in sent)) throw new Error('expected a task');
    const id = sent.task.id;
    const first = client.subscribeToTask({ id });
    for await (const event of first) {
      expect(describeEvent(event)).toBe('task TASK_STATE_WORKING');
      break;
    }
    const resumed = client.subscribeToTask({ id }, { lastEventId: '1' });
    const events: string[] = [];
    for await (const event of resumed) {
      events.push(describeEvent(event));
      if (events.length === 1) {
        const canceled = await client.cancelTask({ id });
        expect(canceled.status.state).toBe('TASK_STATE_CANCELED');
      }
    }
    expect(events).toEqual(['status TASK_STATE_WORKING', 'status TASK_STATE_CANCELED']);
  });

  it('throws core A2AErrors from the error table', async () => {
    const client = await connect();
    const error = await caught(client.getTask({ id: 'no-such-task' }));
    expect(isA2AError(error) && error.type).toBe('TaskNotFound');
    expect(isA2AError(error) && error.code).toBe(-32001);
    const cancel = await caught(client.cancelTask({ id: 'no-such-task' }));
    expect(isA2AError(cancel) && cancel.type).toBe('TaskNotFound');
    const stream = await caught(collect(client.subscribeToTask({ id: 'no-such-task' })));
    expect(isA2AError(stream) && stream.type).toBe('TaskNotFound');
  });

  it('aborting a stream releases the connection; aborting a call rejects it', async () => {
    agent = await startAgent();
    const client = await connect();
    const controller = new AbortController();
    const stream = client.sendStreamingMessage({ message: userMessage('gate:abort') }, { signal: controller.signal });
    const error = await caught(
      (async () => {
        for await (const _ of stream) controller.abort();
      })(),
    );
    expect((error as Error).name).toBe('AbortError');
    await expect.poll(() => agent?.streamClosed()).toBe(true); // the task still runs: the client hung up
    const aborted = new AbortController();
    aborted.abort();
    const rejected = await caught(client.getTask({ id: 'x' }, { signal: aborted.signal }));
    expect((rejected as Error).name).toBe('AbortError');
  });

  it('leaving the loop early releases the connection', async () => {
    agent = await startAgent();
    const client = await connect();
    for await (const event of client.sendStreamingMessage({ message: userMessage('gate:never') })) {
      expect(describeEvent(event)).toBe('task TASK_STATE_SUBMITTED');
      break;
    }
    await expect.poll(() => agent?.streamClosed()).toBe(true); // the task still runs: the client hung up
  });

  it('adds the headers hook to every request (auth), computed per request', async () => {
    agent = await startAgent();
    let calls = 0;
    const client = await connect({
      headers: async ({ operation }) => ({ authorization: `Bearer alice`, 'x-op': `${operation}:${++calls}` }),
    });
    await client.sendMessage({ message: userMessage('chunks:1') });
    expect(agent.requests.map((h) => h.authorization)).toEqual(['Bearer alice', 'Bearer alice']);
    expect(agent.requests.map((h) => h['x-op']).filter(Boolean)).toEqual(['GetAgentCard:1', 'SendMessage:2']);
  });
});
