import { describe, expect, it } from 'vitest';
import {
  AgentCardSchema,
  ListTasksRequestSchema,
  MessageSchema,
  PartSchema,
  SendMessageRequestSchema,
  StreamResponseSchema,
  TaskSchema,
} from './index.js';

describe('ProtoJSON input', () => {
  it('accepts camelCase and snake_case names and produces camelCase', () => {
    const snake = MessageSchema.parse({
      message_id: 'm',
      context_id: 'c',
      task_id: 't',
      role: 'ROLE_USER',
      parts: [{ text: 'x', media_type: 'text/plain' }],
      reference_task_ids: ['r'],
    });
    const camel = MessageSchema.parse({
      messageId: 'm',
      contextId: 'c',
      taskId: 't',
      role: 'ROLE_USER',
      parts: [{ text: 'x', mediaType: 'text/plain' }],
      referenceTaskIds: ['r'],
    });
    expect(snake).toEqual(camel);
    expect(Object.keys(snake)).toEqual(
      expect.arrayContaining(['messageId', 'contextId', 'taskId', 'referenceTaskIds']),
    );
  });

  it('takes enums by name or number, rejects unknown and unspecified values', () => {
    expect(MessageSchema.parse({ messageId: 'm', role: 1, parts: [{ text: 'x' }] }).role).toBe('ROLE_USER');
    expect(MessageSchema.safeParse({ messageId: 'm', role: 'user', parts: [{ text: 'x' }] }).success).toBe(false);
    expect(MessageSchema.safeParse({ messageId: 'm', role: 'ROLE_UNSPECIFIED', parts: [{ text: 'x' }] }).success).toBe(
      false,
    );
    expect(ListTasksRequestSchema.parse({ status: 2 }).status).toBe('TASK_STATE_WORKING');
    expect(ListTasksRequestSchema.safeParse({ status: 'TASK_STATE_BOGUS' }).success).toBe(false);
  });

  it('reads an unspecified or unrecognized status filter as no filter (what @a2a-js/sdk sends for listTasks({}))', () => {
    for (const status of ['UNRECOGNIZED', -1, '-1', 'TASK_STATE_UNSPECIFIED', 0, '0', null]) {
      expect(ListTasksRequestSchema.parse({ status }).status, String(status)).toBeUndefined();
    }
    for (const status of ['TASK_STATE_BOGUS', 'unrecognized', 42, true, {}]) {
      expect(ListTasksRequestSchema.safeParse({ status }).success, String(status)).toBe(false);
    }
  });

  it('ignores unknown fields and treats null as unset', () => {
    const message = MessageSchema.parse({
      messageId: 'm',
      role: 'ROLE_USER',
      parts: [{ text: 'x', kind: 'text' }],
      kind: 'message',
      contextId: null,
    });
    expect(message).toEqual({ messageId: 'm', role: 'ROLE_USER', parts: [{ text: 'x' }] });
  });

  it('requires exactly one part content member', () => {
    expect(PartSchema.safeParse({}).success).toBe(false);
    expect(PartSchema.safeParse({ text: 'a', url: 'https://x' }).success).toBe(false);
    expect(PartSchema.parse({ data: { a: 1 }, mediaType: 'application/json' })).toEqual({
      data: { a: 1 },
      mediaType: 'application/json',
    });
    expect(PartSchema.parse({ data: [1, 'two'] }).data).toEqual([1, 'two']);
  });

  it('normalizes base64 bytes and timestamps', () => {
    expect(PartSchema.parse({ raw: 'aGk_' }).raw).toBe('aGk/');
    expect(PartSchema.parse({ raw: 'aGk' }).raw).toBe('aGk=');
    expect(PartSchema.safeParse({ raw: 'not base64!' }).success).toBe(false);
    expect(
      ListTasksRequestSchema.parse({ statusTimestampAfter: '2026-03-01T10:00:00.123456+00:00' }).statusTimestampAfter,
    ).toBe('2026-03-01T10:00:00.123Z');
    expect(ListTasksRequestSchema.safeParse({ statusTimestampAfter: 'yesterday' }).success).toBe(false);
  });

  it('validates ranges with messages naming the field', () => {
    for (const pageSize of [0, -1, 101]) expect(ListTasksRequestSchema.safeParse({ pageSize }).success).toBe(false);
    expect(ListTasksRequestSchema.parse({ pageSize: '10', includeArtifacts: 'true' })).toMatchObject({
      pageSize: 10,
      includeArtifacts: true,
    });
    const bad = SendMessageRequestSchema.safeParse({ message: { messageId: 'm', role: 'ROLE_USER', parts: [] } });
    expect(bad.error?.issues[0]?.path).toEqual(['message', 'parts']);
    expect(
      SendMessageRequestSchema.safeParse({
        message: { messageId: 'm', role: 'ROLE_USER', parts: [{ text: 'x' }] },
        configuration: { historyLength: -1 },
      }).success,
    ).toBe(false);
  });

  it('round-trips tasks and stream responses unchanged', () => {
    const task = {
      id: 't',
      contextId: 'c',
      status: {
        state: 'TASK_STATE_WORKING',
        timestamp: '2026-01-01T00:00:00.000Z',
        message: { messageId: 'a', role: 'ROLE_AGENT', parts: [{ text: 'working' }] },
      },
      artifacts: [
        {
          artifactId: 'a1',
          name: 'n',
          parts: [{ url: 'https://example.com/f.pdf', filename: 'f.pdf', mediaType: 'application/pdf' }],
        },
      ],
      history: [{ messageId: 'm', role: 'ROLE_USER', parts: [{ raw: 'aGk=' }] }],
      metadata: { k: [1, null] },
    };
    expect(TaskSchema.parse(JSON.parse(JSON.stringify(task)))).toEqual(task);
    const event = {
      artifactUpdate: { taskId: 't', contextId: 'c', artifact: task.artifacts[0], append: true, lastChunk: false },
    };
    expect(StreamResponseSchema.parse(event)).toEqual(event);
    expect(StreamResponseSchema.safeParse({ task, message: task.history[0] }).success).toBe(false);
  });

  it('validates agent cards including security schemes', () => {
    const card = {
      name: 'n',
      description: 'd',
      version: '1',
      supportedInterfaces: [{ url: 'https://a/', protocolBinding: 'JSONRPC', protocolVersion: '1.0' }],
      capabilities: { streaming: true },
      defaultInputModes: ['text/plain'],
      defaultOutputModes: ['text/plain'],
      skills: [{ id: 's', name: 's', description: 'd', tags: ['t'] }],
      securitySchemes: {
        bearer: { httpAuthSecurityScheme: { scheme: 'Bearer' } },
        key: { api_key_security_scheme: { location: 'header', name: 'X-Key' } },
      },
      securityRequirements: [{ schemes: { bearer: { list: [] } } }],
    };
    const parsed = AgentCardSchema.parse(card);
    expect(parsed.securitySchemes?.key?.apiKeySecurityScheme?.name).toBe('X-Key');
    expect(AgentCardSchema.safeParse({ ...card, skills: [] }).success).toBe(false);
    expect(AgentCardSchema.safeParse({ ...card, securitySchemes: { x: {} } }).success).toBe(false);
  });
});
