import { describe, expect, it } from 'vitest';
import { eventually, read, userMessage } from '../client.js';
import { expectRpcError, type Setup, USER } from './setup.js';

/** JSON-RPC: every operation, a multi-turn task and a cancel, the protocol error codes, caller scoping. */
export function defineJsonRpcCases(s: Setup): void {
  describe('JSON-RPC', () => {
    it('serves every operation', async () => {
      const sent = await s.c.rpc('SendMessage', { message: userMessage('hello') }, USER);
      expect(sent.status).toBe(200);
      expect(sent.headers.get('content-type')).toMatch(/^application\/json/);
      const task = sent.body.result.task;
      expect(task.status.state).toBe('TASK_STATE_COMPLETED');
      expect(task.artifacts[0].parts[0].text).toBe('hello');
      const reply = await s.c.rpc('SendMessage', { message: userMessage('reply hi') }, USER);
      expect(reply.body.result.message.parts[0].text).toBe('you said hi');
      expect((await s.c.rpc('GetTask', { id: task.id, historyLength: 1 }, USER)).body.result.history).toHaveLength(1);
      const listed = await s.c.rpc('ListTasks', { contextId: task.contextId }, USER);
      expect(listed.body.result.tasks.map((t: { id: string }) => t.id)).toEqual([task.id]);
      const cfg = { taskId: task.id, id: 'c1', url: 'https://example.com/hook' };
      expect((await s.c.rpc('CreateTaskPushNotificationConfig', cfg, USER)).body.result).toMatchObject(cfg);
      expect(
        (await s.c.rpc('GetTaskPushNotificationConfig', { taskId: task.id, id: 'c1' }, USER)).body.result.url,
      ).toBe(cfg.url);
      expect(
        (await s.c.rpc('ListTaskPushNotificationConfigs', { taskId: task.id }, USER)).body.result.configs,
      ).toHaveLength(1);
      expect(
        (await s.c.rpc('DeleteTaskPushNotificationConfig', { taskId: task.id, id: 'c1' }, USER)).body.result,
      ).toBeDefined();
      const ext = await s.c.rpc('GetExtendedAgentCard', {}, USER); // not declared by the fixture's card
      expect(ext.body.error.code).toBeLessThan(-32000);
    });

    it('runs a multi-turn task and cancels a running one', async () => {
      const first = (await s.c.rpc('SendMessage', { message: userMessage('ask') }, USER)).body.result.task;
      expect(first.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
      const second = await s.c.rpc(
        'SendMessage',
        { message: userMessage('Bob', { taskId: first.id, contextId: first.contextId }) },
        USER,
      );
      expect(second.body.result.task.status.state).toBe('TASK_STATE_COMPLETED');
      const running = (
        await s.c.rpc(
          'SendMessage',
          { message: userMessage('forever'), configuration: { returnImmediately: true } },
          USER,
        )
      ).body.result.task;
      const canceled = await s.c.rpc('CancelTask', { id: running.id }, USER);
      expect(canceled.body.result.status.state).toBe('TASK_STATE_CANCELED');
      await eventually(() => s.fixture.canceled.has(running.id));
    });

    it('answers protocol errors with the JSON-RPC codes', async () => {
      const broken = await read(await s.c.rpcRaw('{"jsonrpc":"2.0","id":1,'));
      expect(broken.status).toBe(200);
      expectRpcError(broken.body, 'ParseError', null);
      expectRpcError((await read(await s.c.rpcRaw('{"id":1,"method":"GetTask"}'))).body, 'InvalidRequest');
      expectRpcError((await read(await s.c.rpcRaw('[]'))).body, 'InvalidRequest');
      expectRpcError((await s.c.rpc('NoSuchMethod', {})).body, 'MethodNotFound');
      const invalid = await s.c.rpc('SendMessage', { message: { role: 'ROLE_USER' } });
      expectRpcError(invalid.body, 'InvalidParams');
      const missing = await s.c.rpc('GetTask', { id: 'no-such-task' });
      expectRpcError(missing.body, 'TaskNotFound');
    });

    it('scopes tasks to the caller from the context hook', async () => {
      const task = (await s.c.rpc('SendMessage', { message: userMessage('mine') }, USER)).body.result.task;
      expect((await s.c.rpc('GetTask', { id: task.id }, USER)).body.result.id).toBe(task.id);
      expect((await s.c.rpc('GetTask', { id: task.id }, { 'x-test-user': 'mallory' })).body.error.code).toBe(-32001);
      expect((await s.c.rpc('GetTask', { id: task.id })).body.error.code).toBe(-32001);
      const other = await s.c.rpc('ListTasks', {}, { 'x-test-user': 'mallory' });
      expect(other.body.result.tasks.map((t: { id: string }) => t.id)).not.toContain(task.id);
    });
  });
}
