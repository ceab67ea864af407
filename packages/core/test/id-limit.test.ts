import { describe, expect, it } from 'vitest';
import { createA2AHandler } from '../src/index.js';
import { MAX_ID_LENGTH } from '../src/schemas/index.js';

// The id limit of the request schemas (src/schemas/id.ts) through the handler: the same refusal on every binding.

const longest = 'i'.repeat(MAX_ID_LENGTH);
const over = 'i'.repeat(MAX_ID_LENGTH + 1);
const message = (extra: Record<string, unknown> = {}) => ({
  messageId: 'm',
  role: 'ROLE_USER',
  parts: [{ text: 'hi' }],
  ...extra,
});
const url = 'https://example.com/hook';

describe('an over-long id is InvalidParams on every binding, and nothing is stored', () => {
  const a2a = createA2AHandler({
    agentCard: {
      name: 'ids',
      description: 'ids',
      version: '1.0.0',
      capabilities: {},
      skills: [{ id: 's', name: 's', description: 's', tags: ['t'] }],
    },
    executor: { execute: (ctx) => ctx.complete('done') },
    onError: () => {},
  });
  const post = (path: string, body: unknown) =>
    a2a.fetch(
      new Request(`http://agent.test${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      }),
    );
  const rpc = async (method: string, params: unknown, version?: string) => {
    const response = await post('/', { jsonrpc: '2.0', id: 1, method, params });
    const body = (await response.json()) as { error?: { code: number; message: string }; result?: unknown };
    return { version, ...body };
  };
  const taskCount = async () => ((await rpc('ListTasks', {})).result as { tasks: unknown[] }).tasks.length;

  it('JSON-RPC (v1.0 and v0.3): -32602, the id not echoed', async () => {
    for (const [method, params] of [
      ['SendMessage', { message: message({ messageId: over }) }],
      ['SendMessage', { message: message({ contextId: over }) }],
      ['GetTask', { id: over }],
      ['CancelTask', { id: over }],
      ['CreateTaskPushNotificationConfig', { taskId: 't', id: over, url }],
      [
        'message/send',
        { message: { kind: 'message', messageId: over, role: 'user', parts: [{ kind: 'text', text: 'x' }] } },
      ],
      ['tasks/get', { id: over }],
    ] as const) {
      const { error } = await rpc(method, params);
      expect(error?.code, method).toBe(-32602);
      expect(error?.message).not.toContain(over);
    }
    expect(await taskCount()).toBe(0);
  });

  it('HTTP+JSON: 400, nothing stored', async () => {
    const send = await post('/message:send', { message: message({ taskId: over }) });
    expect(send.status).toBe(400);
    expect(await send.text()).not.toContain(over);
    const get = await a2a.fetch(new Request(`http://agent.test/tasks/${over}`));
    expect(get.status).toBe(400);
    expect(await taskCount()).toBe(0);
    // The longest accepted id still works end to end.
    expect((await post('/message:send', { message: message({ messageId: longest }) })).status).toBe(200);
  });
});
