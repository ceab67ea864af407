import { afterEach, describe, expect, it } from 'vitest';
import type { AgentContext } from '../src/index.js';
import { card, deferred, eventually, sseReader, startServer, type TestServer, userMessage } from './helpers.js';

/** `slow`: WORKING, then waits for the test's gate, then COMPLETED. `hang`: WORKING until aborted. */
function agent() {
  const gates = new Map<string, () => void>();
  const aborted: string[] = [];
  const execute = async (ctx: AgentContext) => {
    const text = ctx.message.parts.map((p) => ('text' in p ? p.text : '')).join('');
    await ctx.working();
    if (text === 'slow') {
      await new Promise<void>((resolve) => gates.set(ctx.taskId, resolve));
      await ctx.complete('done');
      return;
    }
    await new Promise<void>((resolve) =>
      ctx.signal.addEventListener(
        'abort',
        () => {
          aborted.push(ctx.taskId);
          resolve();
        },
        { once: true },
      ),
    );
  };
  return { gates, aborted, execute };
}

describe('graceful shutdown: close() on the handler', () => {
  let server: TestServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('refuses new work with 503, ends open streams, lets running tasks finish until the deadline, fails the rest', async () => {
    const { gates, aborted, execute } = agent();
    server = await startServer({ agentCard: card, executor: { execute } });
    const { url, rest, rpc, a2a } = server;

    // A live stream of a running task, and a task that would never finish by itself.
    const response = await fetch(`${url}/message:stream`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
      body: JSON.stringify({ message: userMessage('slow') }),
    });
    const stream = sseReader(response);
    const slowId = JSON.parse((await stream.next())?.data ?? '{}').task.id as string;
    await eventually(() => gates.has(slowId));
    const hang = await rest('POST', '/message:send', {
      message: userMessage('hang'),
      configuration: { returnImmediately: true },
    });
    const hangId = hang.body.task.id as string;
    // A blocking SendMessage in flight.
    const blocking = rpc('SendMessage', { message: userMessage('slow') });
    await eventually(() => gates.size === 2);
    const blockingId = [...gates.keys()].find((id) => id !== slowId) as string;

    let closed = false;
    const closing = a2a.close({ timeoutMs: 1500 }).then(() => {
      closed = true;
    });

    // The stream ends cleanly (no error frame, no terminal event): the client may resubscribe elsewhere.
    const rest_ = await stream.all();
    expect(rest_.every((e) => e.event !== 'error')).toBe(true);
    expect(rest_.map((e) => JSON.parse(e.data).statusUpdate?.status.state)).not.toContain('TASK_STATE_COMPLETED');

    // New work is refused at once with a clear error; reads are still served.
    const send = await rest('POST', '/message:send', { message: userMessage('late') });
    expect(send.status).toBe(503);
    expect(send.body.error.status).toBe('UNAVAILABLE');
    expect(send.body.error.message).toMatch(/shutting down/);
    const viaRpc = await rpc('SendMessage', { message: userMessage('late') });
    expect(viaRpc.body.error.message).toMatch(/shutting down/);
    expect(viaRpc.body.id).not.toBeNull();
    const subscribe = await rest('POST', `/tasks/${hangId}:subscribe`, {});
    expect(subscribe.status).toBe(503);
    expect((await rest('GET', `/tasks/${hangId}`)).body.status.state).toBe('TASK_STATE_WORKING');

    // A running task that finishes within the deadline completes normally (and its blocking caller gets it).
    expect(closed).toBe(false);
    gates.get(slowId)?.();
    gates.get(blockingId)?.();
    await eventually(async () => (await rest('GET', `/tasks/${slowId}`)).body.status.state === 'TASK_STATE_COMPLETED');
    expect((await blocking).body.result.task).toMatchObject({
      id: blockingId,
      status: { state: 'TASK_STATE_COMPLETED' },
    });

    // The one still running at the deadline is aborted and FAILED saying why; close() resolves after that.
    await closing;
    expect(aborted).toEqual([hangId]);
    const failed = (await rest('GET', `/tasks/${hangId}`)).body;
    expect(failed.status.state).toBe('TASK_STATE_FAILED');
    expect(failed.status.message.parts[0].text).toMatch(/shut down before the task finished/);
    await a2a.close(); // idempotent
  });

  it('closes at once when nothing runs', async () => {
    const done = deferred();
    server = await startServer({ agentCard: card, executor: { execute: (ctx) => ctx.complete('hi') } });
    await server.rest('POST', '/message:send', { message: userMessage('x') });
    void server.a2a.close().then(() => done.resolve());
    await done.promise; // (the default 25 s deadline would time the test out)
  });
});
