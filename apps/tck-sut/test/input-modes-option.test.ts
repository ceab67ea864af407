import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningSut, startSut } from '../src/server.js';

// The v1.0 kit's CORE-SEND-003 (at 357c4a8) sends a part of an undeclared media type and checks for success, while
// the spec wants ContentTypeNotSupportedError: the SUT refuses by default and accepts with the kit's option
// (TCK_ACCEPT_ANY_INPUT=1, set by scripts/tck.sh for 1.0-dev).
describe('TCK SUT input modes', () => {
  let strict: RunningSut;
  let lenient: RunningSut;
  beforeAll(async () => {
    strict = await startSut({ port: 0 });
    lenient = await startSut({ port: 0, acceptAnyInputMode: true });
  });
  afterAll(async () => {
    await strict.close();
    await lenient.close();
  });

  const send = async (sut: RunningSut) =>
    (
      await fetch(`${sut.url}/`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'a2a-version': '1.0' },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'SendMessage',
          params: {
            message: {
              messageId: 'tck-complete-task-input-modes',
              role: 'ROLE_USER',
              parts: [{ raw: 'dGNr', mediaType: 'application/x-unsupported-tck-type' }],
            },
          },
        }),
      })
    ).json();

  it('refuses an undeclared media type by default (spec §3.1.1)', async () => {
    expect((await send(strict)).error).toMatchObject({ code: -32005 });
  });

  it('accepts it with acceptAnyInputMode, as the v1.0 kit expects', async () => {
    expect((await send(lenient)).result.task.status.state).toBe('TASK_STATE_COMPLETED');
  });
});
