import { createLocalJWKSet, exportJWK, generateKeyPair } from 'jose';
import { afterAll, afterEach, expect, it, vi } from 'vitest';
import { createWebhookReceiver } from '../src/index.js';
import { startReceiver } from './servers.js';

const closers: (() => Promise<void>)[] = [];
afterAll(() => Promise.all(closers.map((c) => c())));
afterEach(() => {
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
});

/** A receiver that wants the token AND the agent's JWT, sent a notification that only carries the token. */
async function tokenOnlyDelivery(onError?: (error: unknown) => void) {
  const { publicKey } = await generateKeyPair('ES256');
  const receiver = createWebhookReceiver({
    token: 'secret-token',
    jwt: {
      jwks: createLocalJWKSet({ keys: [await exportJWK(publicKey)] }),
      issuer: 'http://agent.test',
      audience: 'http://me.test/hook',
    },
    ...(onError && { onError }),
  });
  const rx = await startReceiver(receiver);
  closers.push(rx.close);
  const body = JSON.stringify({
    statusUpdate: { taskId: 't', contextId: 'c', status: { state: 'TASK_STATE_WORKING' } },
  });
  return fetch(`${rx.url}/hook`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-a2a-notification-token': 'secret-token' },
    body,
  });
}

it('says in development why a notification was refused, and that every configured verifier must pass', async () => {
  vi.stubEnv('NODE_ENV', 'development');
  const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
  const response = await tokenOnlyDelivery();
  expect(response.status).toBe(401);
  expect(await response.text()).toBe('Unauthorized'); // the sender learns nothing
  expect(warn).toHaveBeenCalledOnce();
  expect(warn.mock.calls[0]?.[0]).toMatch(
    /^\[a2a webhook\] refused 401: missing a2a-notification-signature header; every configured verifier must pass \(token, jwt\)$/,
  );
});

it('stays quiet in production, and an onError hook gets the refusal instead', async () => {
  vi.stubEnv('NODE_ENV', 'production');
  const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
  expect((await tokenOnlyDelivery()).status).toBe(401);
  expect(warn).not.toHaveBeenCalled();
  vi.stubEnv('NODE_ENV', 'development');
  const onError = vi.fn();
  expect((await tokenOnlyDelivery(onError)).status).toBe(401);
  expect(warn).not.toHaveBeenCalled();
  expect(onError.mock.calls[0]?.[0]).toMatchObject({ status: 401, message: expect.stringContaining('missing') });
});
