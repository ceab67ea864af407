import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningSut, startSut } from '../src/server.js';
import { type ActsWire, type Json, ok, userMessage, wireFor } from './acts-wire.js';

// tck-client-parse (ACTS §10 through a2a-itk's behaviour): the SUT hands the corpus's wire payloads to @a2a/client
// and answers with what the client made of them, as the data part of a completed task's artifact.
const task = {
  id: 'task-abc-123',
  contextId: 'ctx-001',
  status: { state: 'TASK_STATE_COMPLETED', timestamp: '2025-05-25T20:00:00Z' },
  artifacts: [{ artifactId: 'art-1', parts: [{ text: 'hello world' }] }],
};
const rpcResult = (result: unknown) => ({ jsonrpc: '2.0', id: 'req-001', result });

describe.each(['jsonrpc', 'rest', 'grpc'] as const)('tck-client-parse over %s', (binding) => {
  let sut: RunningSut;
  let wire: ActsWire;
  beforeAll(async () => {
    sut = await startSut({ port: 0, grpcPort: 0, acts: {} });
    wire = wireFor(binding, sut);
  });
  afterAll(async () => {
    wire.close();
    await sut.close();
  });

  /** The completed task's parsed payload (the first data part of its artifacts). */
  const parse = async (operation: string, wirePayload: unknown): Promise<Json> => {
    const answer = ok(
      await wire.call(
        'SendMessage',
        userMessage('tck-client-parse', {}, [{ data: { operation, wire_payload: wirePayload } }]),
      ),
    ).task;
    expect(answer.status.state).toBe('TASK_STATE_COMPLETED');
    return answer.artifacts[0].parts[0].data;
  };

  it('a SendMessage answer: the task or the message, as the client returns them', async () => {
    expect(await parse('send_message', rpcResult({ task }))).toEqual({ task });
    const message = { messageId: 'msg-001', role: 'ROLE_AGENT', parts: [{ text: 'I can help with that' }] };
    expect(await parse('send_message', rpcResult({ message }))).toEqual({ message });
  });

  it('a GetTask answer, and the error an agent answered', async () => {
    expect(await parse('get_task', rpcResult(task))).toEqual(task);
    const error = { code: -32001, message: 'Task not found', data: { taskId: 'nonexistent-task-id' } };
    expect(await parse('get_task', { jsonrpc: '2.0', id: 'req-004', error })).toEqual({
      error: { code: -32001, message: 'Task not found', type: 'TaskNotFound' },
    });
    // A bare HTTP+JSON body goes through the client's REST wire, with the status its google.rpc.Status names.
    expect(await parse('get_task', task)).toEqual(task);
    const status = { error: { code: 404, status: 'NOT_FOUND', message: 'Task not found: t-1', details: [] } };
    expect(await parse('get_task', status)).toMatchObject({ error: { code: -32001, type: 'TaskNotFound' } });
  });

  it("the client's refusals are answered too (a history message without messageId is not a v1.0 Message)", async () => {
    const history = [{ role: 'ROLE_USER', parts: [{ text: 'original request' }] }];
    expect(await parse('get_task', rpcResult({ ...task, history }))).toMatchObject({
      error: { type: 'InvalidAgentResponse', message: expect.stringMatching(/wrong shape/) },
    });
  });

  it('the public card and the extended card (bare, as served over HTTP)', async () => {
    const card = {
      name: 'Example Agent',
      version: '1.0.0',
      capabilities: { streaming: true, extendedAgentCard: true },
      skills: [{ id: 'extended-skill', name: 'Extended Skill' }],
      supportedInterfaces: [
        { url: 'https://example.com/extendedAgentCard', protocolBinding: 'REST', protocolVersion: '1.0' },
      ],
    };
    expect(await parse('get_agent_card', card)).toEqual(card);
    expect(await parse('get_extended_agent_card', card)).toEqual(card);
    expect(await parse('get_extended_agent_card', rpcResult(card))).toEqual(card);
  });

  it('fails the task without a payload or for an operation it does not run', async () => {
    const bare = ok(await wire.call('SendMessage', userMessage('tck-client-parse'))).task;
    expect(bare.status.state).toBe('TASK_STATE_FAILED');
    const streaming = ok(
      await wire.call(
        'SendMessage',
        userMessage('tck-client-parse', {}, [{ data: { operation: 'subscribe_to_task', wire_payload: {} } }]),
      ),
    ).task;
    expect(streaming.status.state).toBe('TASK_STATE_FAILED');
    expect(streaming.status.message.parts[0].text).toMatch(/unsupported operation 'subscribe_to_task'/);
  });
});
