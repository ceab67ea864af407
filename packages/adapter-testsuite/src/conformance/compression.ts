import { expect, it } from 'vitest';
import { read, sse, userMessage, within } from '../client.js';
import { gateName, type Setup, USER } from './setup.js';

/** With the framework's compression in front: SSE still event by event under gzip, JSON answers intact. */
export function defineCompressionCases(s: Setup): void {
  it('still delivers SSE events one by one with Accept-Encoding: gzip', async () => {
    const g = gateName();
    const response = await s.c.restFetch(
      'POST',
      '/message:stream',
      { message: userMessage(`gated ${g}`) },
      { ...USER, 'accept-encoding': 'gzip' },
    );
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const stream = sse(response);
    for (let seen = 0; seen < 2; seen++) await within(stream.next(), 3000, `event ${seen + 1} before the release`);
    s.fixture.release(g);
    const artifact = JSON.parse((await within(stream.next(), 3000, 'artifact after release'))?.data ?? 'null');
    expect(artifact.artifactUpdate.artifact.parts[0].text).toBe('chunk 1');
    s.fixture.release(`${g}-2`);
    expect(JSON.parse((await stream.rest()).at(-1)?.data ?? 'null').statusUpdate.status.state).toBe(
      'TASK_STATE_COMPLETED',
    );
  });

  it('serves (possibly compressed) JSON answers intact', async () => {
    const text = 'ü'.repeat(4000);
    const r = await read(
      await s.c.rpcFetch('SendMessage', { message: userMessage(text) }, { ...USER, 'accept-encoding': 'gzip' }),
    );
    expect(r.body.result.task.artifacts[0].parts[0].text).toBe(text);
    const card = await read(
      await fetch(`${s.c.base}/.well-known/agent-card.json`, { headers: { 'accept-encoding': 'gzip' } }),
    );
    expect(card.body.name).toBe('Conformance fixture');
  });
}
