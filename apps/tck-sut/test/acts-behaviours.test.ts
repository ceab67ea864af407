import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADAPTERS, type RunningSut, startSut } from '../src/server.js';
import { type ActsWire, isTerminal, type Json, ok, okEvents, pollTask, userMessage, wireFor } from './acts-wire.js';

// The ACTS behaviour contract (acts/sut-behaviors.yaml) on a real SUT, over the three bindings, the way the corpus
// drives it: the behaviour named by the text of the first user message, continuations and streams included.
const WIRES = ['jsonrpc', 'rest', 'grpc'] as const;

describe.each(WIRES)('ACTS behaviours over %s', (binding) => {
  let sut: RunningSut;
  let wire: ActsWire;
  beforeAll(async () => {
    sut = await startSut({ port: 0, grpcPort: 0, acts: {}, longRunningMs: 400 });
    wire = wireFor(binding, sut);
  });
  afterAll(async () => {
    wire.close();
    await sut.close();
  });

  const send = async (text: string, more: Json = {}, configuration?: Json) =>
    ok(await wire.call('SendMessage', { ...userMessage(text, more), ...(configuration && { configuration }) }));
  const taskOf = async (text: string) => (await send(text)).task;
  const statusText = (task: Json) => task.status.message?.parts?.[0]?.text ?? '';

  it('ends each one-shot behaviour in its state, with a status message where the corpus reads one', async () => {
    const done = await taskOf('tck-complete-task hello world');
    expect(done.status.state).toBe('TASK_STATE_COMPLETED');
    expect(statusText(done)).not.toBe('');
    expect(ok(await wire.call('GetTask', { id: done.id })).status.state).toBe('TASK_STATE_COMPLETED');
    expect((await taskOf('tck-input-required please')).status.state).toBe('TASK_STATE_INPUT_REQUIRED');
    expect((await taskOf('tck-reject-task now')).status.state).toBe('TASK_STATE_REJECTED');
    const auth = await taskOf('tck-auth-required trigger auth');
    expect(auth.status.state).toBe('TASK_STATE_AUTH_REQUIRED');
    expect(statusText(auth)).toMatch(/auth/i);
    const failed = await taskOf('tck-task-failure trigger error');
    expect(failed.status.state).toBe('TASK_STATE_FAILED');
    expect(statusText(failed)).toMatch(/fail/i);
  });

  it('tck-message-response answers with a Message, not a Task', async () => {
    const answer = await send('tck-message-response hello');
    expect(answer.task).toBeUndefined();
    expect(answer.message).toMatchObject({ role: 'ROLE_AGENT', parts: [{ text: expect.any(String) }] });
  });

  it('completes with a text, data, file or file-URL artifact (the longest name wins)', async () => {
    const part = async (text: string) => {
      const task = await taskOf(text);
      expect(task.status.state).toBe('TASK_STATE_COMPLETED');
      return task.artifacts[0].parts[0];
    };
    expect(await part('tck-artifact-text hello')).toMatchObject({ text: 'Generated text content' });
    expect(await part('tck-artifact-data structured')).toMatchObject({ data: { key: 'value', count: 42 } });
    expect(await part('tck-artifact-file document')).toMatchObject({ raw: 'dGNr', filename: 'output.txt' });
    expect(await part('tck-artifact-file-url document')).toMatchObject({ url: 'https://example.com/output.txt' });
  });

  it('tck-long-running: WORKING when polled, then COMPLETED with an artifact', async () => {
    const started = (await send('tck-long-running start process', {}, { returnImmediately: true })).task;
    expect(['TASK_STATE_SUBMITTED', 'TASK_STATE_WORKING']).toContain(started.status.state);
    const working = await pollTask(wire, started.id, (t) => t.status.state === 'TASK_STATE_WORKING');
    expect(working.status.state).toBe('TASK_STATE_WORKING');
    const finished = await pollTask(wire, started.id, isTerminal);
    expect(finished.status.state).toBe('TASK_STATE_COMPLETED');
    expect(finished.artifacts.length).toBeGreaterThanOrEqual(1);
  });

  it('tck-multi-turn: INPUT_REQUIRED per turn, `done` completes, history is the user turns in order', async () => {
    const first = await taskOf('tck-multi-turn chronological first');
    expect(first.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
    const ids = { taskId: first.id, contextId: first.contextId };
    expect((await taskOf2('here is more input', ids)).status.state).toBe('TASK_STATE_INPUT_REQUIRED');
    // Only the task id: the context is inferred (CORE-MULTI-005).
    const last = (await send('done', { taskId: first.id })).task;
    expect(last).toMatchObject({ id: first.id, contextId: first.contextId, status: { state: 'TASK_STATE_COMPLETED' } });
    const history = ok(await wire.call('GetTask', { id: first.id })).history;
    expect(history.map((m: Json) => m.parts[0].text)).toEqual([
      'tck-multi-turn chronological first',
      'here is more input',
      'done',
    ]);
    const limited = ok(await wire.call('GetTask', { id: first.id, historyLength: 2 }));
    expect(limited.history.length).toBeLessThanOrEqual(2);
  });
  const taskOf2 = async (text: string, ids: Json) => (await send(text, ids)).task;

  it('tck-cancel stays WORKING until CancelTask', async () => {
    const started = (await send('tck-cancel start', {}, { returnImmediately: true })).task;
    expect(['TASK_STATE_SUBMITTED', 'TASK_STATE_WORKING']).toContain(started.status.state);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(ok(await wire.call('GetTask', { id: started.id })).status.state).toBe('TASK_STATE_WORKING');
    const canceled = ok(await wire.call('CancelTask', { id: started.id }));
    expect(canceled).toMatchObject({ id: started.id, status: { state: 'TASK_STATE_CANCELED' } });
  });

  const states = (events: Json[]) => events.map((e) => e.statusUpdate?.status.state ?? e.task?.status.state);

  it('tck-stream-basic: working, an artifact, completed (last)', async () => {
    const events = okEvents(await wire.stream('SendStreamingMessage', userMessage('tck-stream-basic generate output')));
    expect(events.length).toBeGreaterThanOrEqual(3);
    expect(states(events)).toContain('TASK_STATE_WORKING');
    expect(events.some((e: Json) => e.artifactUpdate?.artifact.parts.length >= 1)).toBe(true);
    expect(states(events).at(-1)).toBe('TASK_STATE_COMPLETED');
  });

  it('tck-stream-chunked: one artifact in appended chunks, the last one marked', async () => {
    const events = okEvents(await wire.stream('SendStreamingMessage', userMessage('tck-stream-chunked multi-part')));
    const chunks = events.filter((e: Json) => e.artifactUpdate).map((e: Json) => e.artifactUpdate);
    expect(chunks.length).toBe(3);
    expect(new Set(chunks.map((c: Json) => c.artifact.artifactId)).size).toBe(1);
    expect(chunks.map((c: Json) => Boolean(c.append))).toEqual([false, true, true]);
    expect(chunks.map((c: Json) => Boolean(c.lastChunk))).toEqual([false, false, true]);
    expect(states(events).at(-1)).toBe('TASK_STATE_COMPLETED');
  });

  it('subscribing to tck-long-running: the current task first, the terminal state last', async () => {
    const started = (await send('tck-long-running start', {}, { returnImmediately: true })).task;
    const events = okEvents(await wire.stream('SubscribeToTask', { id: started.id }));
    expect(events[0]?.task?.id).toBe(started.id);
    expect(states(events).at(-1)).toBe('TASK_STATE_COMPLETED');
  });

  it('a non-streaming behaviour streams too (tck-message-response: one message)', async () => {
    const events = okEvents(await wire.stream('SendStreamingMessage', userMessage('tck-message-response streaming')));
    expect(events).toHaveLength(1);
    expect(events[0]?.message.role).toBe('ROLE_AGENT');
  });

  it('an unknown tck-* name fails the task loudly; a TCK messageId prefix still wins over the text', async () => {
    const unknown = await taskOf('tck-complet-task typo');
    expect(unknown.status.state).toBe('TASK_STATE_FAILED');
    expect(statusText(unknown)).toMatch(/unknown behaviour 'tck-complet-task'/i);
    const byId = ok(
      await wire.call('SendMessage', {
        message: { messageId: 'tck-input-required-42', role: 'ROLE_USER', parts: [{ text: 'tck-complete-task' }] },
      }),
    );
    expect(byId.task.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
  });
});

// The same agent behind each framework: a continuation, a stream and the client parse through every adapter.
describe.each(ADAPTERS)('ACTS behaviours on %s', (adapter) => {
  let sut: RunningSut;
  beforeAll(async () => {
    sut = await startSut({ adapter, port: 0, acts: {} });
  });
  afterAll(() => sut.close());

  it('runs a multi-turn conversation, streams chunks and parses a client payload', async () => {
    const rpc = wireFor('jsonrpc', sut);
    const rest = wireFor('rest', sut);
    const first = ok(await rpc.call('SendMessage', userMessage('tck-multi-turn start'))).task;
    expect(first.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
    const last = ok(await rest.call('SendMessage', userMessage('done', { taskId: first.id }))).task;
    expect(last.status.state).toBe('TASK_STATE_COMPLETED');
    const events = okEvents(await rest.stream('SendStreamingMessage', userMessage('tck-stream-chunked')));
    expect(events.filter((e) => e.artifactUpdate)).toHaveLength(3);
    const parsed = ok(
      await rpc.call(
        'SendMessage',
        userMessage('tck-client-parse', {}, [
          {
            data: {
              operation: 'get_task',
              wire_payload: {
                jsonrpc: '2.0',
                id: 1,
                result: { id: 't', contextId: 'c', status: { state: 'TASK_STATE_WORKING' } },
              },
            },
          },
        ]),
      ),
    ).task;
    expect(parsed.artifacts[0].parts[0].data).toMatchObject({ id: 't', status: { state: 'TASK_STATE_WORKING' } });
  });
});
