import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningSut, startSut } from '../src/server.js';

// `A2A_DIALECTS=sessions,paraphrase` turns the opt-in dialects on in the SUT; without it they are not served.
describe('TCK SUT dialects', () => {
  let plain: RunningSut;
  let dialects: RunningSut;
  beforeAll(async () => {
    plain = await startSut({ port: 0 });
    dialects = await startSut({ port: 0, dialects: ['sessions', 'paraphrase'] });
  });
  afterAll(async () => {
    await plain.close();
    await dialects.close();
  });

  it('serves the sessions and paraphrase routes only when asked', async () => {
    const created = await fetch(`${dialects.url}/sessions`, { method: 'POST' });
    expect(created.status).toBe(201);
    const card = await fetch(`${dialects.url}/agent-card`);
    expect(card.status).toBe(200);
    expect((await fetch(`${plain.url}/sessions`, { method: 'POST' })).status).toBe(404);
    expect((await fetch(`${plain.url}/agent-card`)).status).toBe(404);
  });

  it('refuses an unknown dialect name at setup', async () => {
    await expect(startSut({ port: 0, dialects: ['nope' as 'sessions'] })).rejects.toThrow(/unknown dialect "nope"/);
  });
});
