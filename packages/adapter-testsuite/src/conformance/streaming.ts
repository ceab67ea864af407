import { describe, expect, it } from 'vitest';
import { eventually, read, sse, userMessage, within } from '../client.js';
import { expectStatusBody, gateName, type Setup, USER } from './setup.js';

/** Streaming: SSE delivery over both bindings, keep-alives, early and late errors, release on disconnect. */
export function defineStreamingCases(s: Setup): void {
  describe('streaming', () => {
    it('delivers each event as it happens with SSE headers, over both bindings', async () => {
      for (const binding of ['jsonrpc', 'rest'] as const) {
        const g = gateName();
        const response =
          binding === 'jsonrpc'
            ? await s.c.rpcFetch('SendStreamingMessage', { message: userMessage(`gated ${g}`) }, USER)
            : await s.c.restFetch('POST', '/message:stream', { message: userMessage(`gated ${g}`) }, USER);
        expect(response.status).toBe(200);
        expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
        expect(response.headers.get('cache-control')).toContain('no-cache');
        const stream = sse(response);
        const unwrap = (data: string) => (binding === 'jsonrpc' ? JSON.parse(data).result : JSON.parse(data));
        const first = unwrap((await within(stream.next(), 3000, 'first event'))?.data ?? 'null');
        expect(first.task ?? first.statusUpdate).toBeDefined();
        // Event 2 exists only after the release: the first one must have arrived on its own.
        const nextEvents: unknown[] = [];
        for (;;) {
          const e = await within(stream.next(), 3000, 'working status');
          const v = unwrap(e?.data ?? 'null');
          nextEvents.push(v);
          if (
            v?.statusUpdate?.status?.state === 'TASK_STATE_WORKING' ||
            v?.task?.status?.state === 'TASK_STATE_WORKING'
          )
            break;
        }
        s.fixture.release(g);
        const artifact = unwrap((await within(stream.next(), 3000, 'artifact after release'))?.data ?? 'null');
        expect(artifact.artifactUpdate.artifact.parts[0].text).toBe('chunk 1');
        s.fixture.release(`${g}-2`);
        const rest = (await stream.rest()).map((e) => unwrap(e.data));
        expect(rest.at(-1).statusUpdate.status.state).toBe('TASK_STATE_COMPLETED');
      }
    });

    it('sends keep-alive comments while idle', async () => {
      const g = gateName();
      const stream = sse(await s.c.restFetch('POST', '/message:stream', { message: userMessage(`gated ${g}`) }, USER));
      await within(stream.next(), 3000, 'first event');
      await within(stream.untilComments(2), 3000, 'keep-alives');
      expect(stream.comments.filter((c) => c.includes('keep-alive')).length).toBeGreaterThanOrEqual(2);
      s.fixture.release(g);
      s.fixture.release(`${g}-2`);
      await stream.rest();
    });

    it('answers an error before the first event as JSON, and a later one as an error event, then closes', async () => {
      const unknownTask = { message: userMessage('hi', { taskId: 'no-such-task' }) };
      const early = await read(await s.c.rpcFetch('SendStreamingMessage', unknownTask, USER));
      expect(early.headers.get('content-type')).toMatch(/^application\/json/);
      expect(early.body.error.code).toBe(-32001);
      const earlyRest = await read(await s.c.restFetch('POST', '/message:stream', unknownTask, USER));
      expect(earlyRest.status).toBe(404);
      expectStatusBody(earlyRest.body, 404, 'TaskNotFound');
      // An executor that throws before emitting anything: the task exists already, so it ends FAILED in-stream.
      const failed = (
        await within(
          sse(await s.c.restFetch('POST', '/message:stream', { message: userMessage('boom') }, USER)).rest(),
          3000,
          'boom stream',
        )
      ).map((e) => JSON.parse(e.data));
      expect(failed.at(-1)?.statusUpdate?.status?.state ?? failed.at(-1)?.error).toBeDefined();
      const g = gateName();
      const response = await s.c.restFetch('POST', '/message:stream', { message: userMessage(`midboom ${g}`) }, USER);
      expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
      const stream = sse(response);
      await within(stream.next(), 3000, 'first event');
      s.fixture.release(g);
      const rest = await within(stream.rest(), 3000, 'the stream to close');
      const error = rest.find((e) => e.event === 'error');
      expect(error && JSON.parse(error.data)).toMatchObject({ error: { code: 500 } });
      expect(rest.at(-1)).toBe(error);
    });

    it('releases the stream when the client disconnects; the task goes on and can be resubscribed', async () => {
      const g = gateName();
      const abort = new AbortController();
      const stream = sse(
        await s.c.restFetch('POST', '/message:stream', { message: userMessage(`gated ${g}`) }, USER, abort.signal),
      );
      const first = JSON.parse((await within(stream.next(), 3000, 'first event'))?.data ?? 'null');
      const taskId: string = first.task?.id ?? first.statusUpdate?.taskId;
      expect(s.fixture.openSubscriptions(taskId)).toBeGreaterThan(0);
      abort.abort();
      await eventually(() => s.fixture.openSubscriptions(taskId) === 0, 3000);
      const again = sse(await s.c.restFetch('GET', `/tasks/${taskId}:subscribe`, undefined, USER));
      expect(JSON.parse((await within(again.next(), 3000, 'resubscribed'))?.data ?? 'null').task.id).toBe(taskId);
      s.fixture.release(g);
      s.fixture.release(`${g}-2`);
      const tail = (await within(again.rest(), 3000, 'completion')).map((e) => JSON.parse(e.data));
      expect(tail.at(-1).statusUpdate.status.state).toBe('TASK_STATE_COMPLETED');
      expect((await s.c.rest('GET', `/tasks/${taskId}`, undefined, USER)).body.status.state).toBe(
        'TASK_STATE_COMPLETED',
      );
    });
  });
}
