import { expect, it } from 'vitest';
import { sse, userMessage, within } from '../client.js';
import { gateName, type Setup, USER } from './setup.js';

/** The `id:` lines of an SSE body, in order. */
const eventIds = (body: string) =>
  body
    .split('\n\n')
    .filter((frame) => frame.startsWith('id: '))
    .map((frame) => frame.split('\n', 1)[0]);

/**
 * How an event stream is framed on the wire. A stream the agent has finished within its burst leaves as one body with
 * a Content-Length where the adapter writes it once (`oneWrite`, docs/performance.md "Koa and Hapi streams"), chunked
 * otherwise; a stream that goes on is always chunked, its events arriving before its end.
 */
export function defineStreamFramingCases(s: Setup, oneWrite: boolean): void {
  const finished = oneWrite ? 'as one body with a Content-Length' : 'chunked';
  it(`writes a stream finished within its burst ${finished}`, async () => {
    const response = await s.c.rpcFetch('SendStreamingMessage', { message: userMessage('framing') }, USER);
    const body = await response.text();
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    if (oneWrite) {
      expect(response.headers.get('transfer-encoding')).toBeNull();
      expect(Number(response.headers.get('content-length'))).toBe(Buffer.byteLength(body));
    } else {
      expect(response.headers.get('transfer-encoding')).toBe('chunked');
      expect(response.headers.get('content-length')).toBeNull();
    }
    // The task, working, the artifact, completed: every event, with its id, whole.
    expect(eventIds(body)).toEqual(['id: 1', 'id: 2', 'id: 3', 'id: 4']);
    expect(body.split('\n\n').filter(Boolean).at(-1)).toContain('"TASK_STATE_COMPLETED"');
  });

  it('streams a stream that goes on, chunked, its events before its end', async () => {
    const g = gateName();
    const response = await s.c.rpcFetch('SendStreamingMessage', { message: userMessage(`gated ${g}`) }, USER);
    expect(response.status).toBe(200);
    expect(response.headers.get('transfer-encoding')).toBe('chunked');
    expect(response.headers.get('content-length')).toBeNull();
    const stream = sse(response);
    // The first two events (the task, its working status) arrive while the agent waits at the gate.
    const ids = [(await within(stream.next(), 3000, 'first event'))?.id];
    ids.push((await within(stream.next(), 3000, 'working status'))?.id);
    s.fixture.release(g);
    s.fixture.release(`${g}-2`);
    const rest = await within(stream.rest(), 3000, 'the rest');
    expect([...ids, ...rest.map((e) => e.id)]).toEqual(['1', '2', '3', '4']);
    expect(JSON.parse(rest.at(-1)?.data ?? 'null').result.statusUpdate.status.state).toBe('TASK_STATE_COMPLETED');
  });
}
