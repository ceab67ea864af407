import { describe, expect, it } from 'vitest';
import { read, userMessage } from '../client.js';
import { expectStatusBody, type Setup, USER } from './setup.js';

/** HTTP+JSON: every operation, and errors as HTTP statuses with a google.rpc.Status body. */
export function defineRestCases(s: Setup): void {
  describe('HTTP+JSON', () => {
    it('serves every operation', async () => {
      const sent = await s.c.rest('POST', '/message:send', { message: userMessage('rest') }, USER);
      expect(sent.status).toBe(200);
      expect(sent.headers.get('content-type')).toMatch(/^application\/(a2a\+)?json/);
      const task = sent.body.task;
      expect(task.status.state).toBe('TASK_STATE_COMPLETED');
      expect((await s.c.rest('GET', `/tasks/${task.id}?historyLength=1`, undefined, USER)).body.history).toHaveLength(
        1,
      );
      expect((await s.c.rest('GET', `/tasks?contextId=${task.contextId}`, undefined, USER)).body.tasks).toHaveLength(1);
      const cfg = await s.c.rest(
        'POST',
        `/tasks/${task.id}/pushNotificationConfigs`,
        { id: 'c1', url: 'https://example.com/h' },
        USER,
      );
      expect(cfg.body).toMatchObject({ id: 'c1', taskId: task.id });
      expect((await s.c.rest('GET', `/tasks/${task.id}/pushNotificationConfigs/c1`, undefined, USER)).body.url).toBe(
        'https://example.com/h',
      );
      expect(
        (await s.c.rest('GET', `/tasks/${task.id}/pushNotificationConfigs`, undefined, USER)).body.configs,
      ).toHaveLength(1);
      expect((await s.c.rest('DELETE', `/tasks/${task.id}/pushNotificationConfigs/c1`, undefined, USER)).status).toBe(
        200,
      );
      const running = (
        await s.c.rest(
          'POST',
          '/message:send',
          { message: userMessage('forever'), configuration: { returnImmediately: true } },
          USER,
        )
      ).body.task;
      const canceled = await read(
        await fetch(`${s.c.base}/tasks/${running.id}:cancel`, { method: 'POST', headers: USER }),
      );
      expect(canceled.status).toBe(200);
      expect(canceled.body.status.state).toBe('TASK_STATE_CANCELED');
    });

    it('maps errors to HTTP statuses with a google.rpc.Status body', async () => {
      const missing = await s.c.rest('GET', '/tasks/no-such-task', undefined, USER);
      expect(missing.status).toBe(404);
      expectStatusBody(missing.body, 404, 'TaskNotFound');
      const invalid = await s.c.rest('POST', '/message:send', {
        message: { role: 'ROLE_USER', parts: [{ text: 'x' }] },
      });
      expect(invalid.status).toBe(400);
      expectStatusBody(invalid.body, 400);
      const broken = await read(
        await fetch(`${s.c.base}/message:send`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: '{oops',
        }),
      );
      expect(broken.status).toBe(400);
      expectStatusBody(broken.body, 400);
      expect((await s.c.rest('GET', '/tasks?pageSize=100000')).status).toBe(400);
      const notAllowed = await s.c.rest('DELETE', '/message:send');
      expect(notAllowed.status).toBe(405);
      expect(notAllowed.headers.get('allow')).toBe('POST');
      expectStatusBody(notAllowed.body, 405, 'MethodNotAllowed');
    });
  });
}
