import * as sdk from '@a2a-js/sdk';
import { describe, expect, it } from 'vitest';
import { AgentCardSchema } from './agent-card.js';
import { MessageSchema } from './message.js';
import { TaskPushNotificationConfigSchema } from './push-config.js';
import {
  CancelTaskRequestSchema,
  DeleteTaskPushNotificationConfigRequestSchema,
  GetExtendedAgentCardRequestSchema,
  GetTaskPushNotificationConfigRequestSchema,
  GetTaskRequestSchema,
  ListTaskPushNotificationConfigsRequestSchema,
  ListTaskPushNotificationConfigsResponseSchema,
  ListTasksRequestSchema,
  ListTasksResponseSchema,
  SendMessageRequestSchema,
  SendMessageResponseSchema,
  SubscribeToTaskRequestSchema,
} from './requests.js';
import { simpleSendMessage } from './simple-send-message.js';
import { StreamResponseSchema, TaskSchema } from './task.js';

// What `@a2a-js/sdk` puts on the wire: its ts-proto codecs' ProtoJSON, which omits every empty list and map and every
// default scalar (false, 0, '', enum 0), REQUIRED fields included. Our schemas must read all of it.

/** The SDK's wire form of a value: decoded by its codec from JSON, encoded back. */
const wire = <T>(codec: sdk.MessageFns<T>, json: unknown): unknown =>
  codec.toJSON(codec.fromJSON(json as sdk.JsonInput));

const card = wire(sdk.AgentCard, {
  name: 'SDK agent',
  description: '',
  version: '1.0.0',
  supportedInterfaces: [{ url: 'https://agent.example.com/a2a', protocolBinding: 'JSONRPC', protocolVersion: '1.0' }],
  capabilities: { extensions: [] },
  defaultInputModes: ['text'],
  defaultOutputModes: [],
  provider: { url: '', organization: 'Example' },
  securitySchemes: {
    Bearer: { httpAuthSecurityScheme: { scheme: 'Bearer', description: '', bearerFormat: '' } },
    OAuth: { oauth2SecurityScheme: { flows: { clientCredentials: { tokenUrl: 'https://a/token', scopes: {} } } } },
    Code: {
      oauth2SecurityScheme: {
        flows: {
          authorizationCode: { authorizationUrl: 'https://a/auth', tokenUrl: 'https://a/t', pkceRequired: false },
        },
      },
    },
    Mtls: { mtlsSecurityScheme: { description: '' } },
  },
  securityRequirements: [{ schemes: { Bearer: { list: [] } } }, { schemes: {} }],
  skills: [
    {
      id: 'echo',
      name: 'Echo',
      description: '',
      tags: ['echo'],
      examples: [],
      inputModes: [],
      securityRequirements: [{ schemes: { OAuth: { list: [] } } }],
    },
  ],
  signatures: [],
});

const message = (fields: Record<string, unknown> = {}) => ({
  messageId: 'm-1',
  contextId: '',
  taskId: '',
  role: 'ROLE_USER',
  parts: [{ text: '', filename: '', mediaType: '' }],
  extensions: [],
  referenceTaskIds: [],
  ...fields,
});
const task = {
  id: 't-1',
  contextId: 'c-1',
  status: { state: 'TASK_STATE_WORKING' },
  artifacts: [{ artifactId: 'a-1', name: '', description: '', parts: [{ text: '' }], extensions: [] }],
  history: [message({ contextId: 'c-1', taskId: 't-1' })],
};
const pushConfig = { tenant: '', id: '', taskId: '', url: 'https://hooks.example.com/a2a', token: '' };

describe('the SDK wire form of every v1.0 object reads through our schemas', () => {
  it('omits the empty and default fields we have to read (the premise of this file)', () => {
    expect(card).toMatchObject({ securityRequirements: [{ schemes: { Bearer: {} } }, {}] });
    expect(card).not.toHaveProperty('description');
    expect(card).not.toHaveProperty('defaultOutputModes');
    expect(wire(sdk.ListTasksResponse, { tasks: [], nextPageToken: '', pageSize: 0, totalSize: 0 })).toEqual({});
  });

  it('an agent card: empty scope lists and scheme maps, empty descriptions and modes, default booleans', () => {
    const parsed = AgentCardSchema.parse(card);
    expect(parsed.securityRequirements).toEqual([{ schemes: { Bearer: { list: [] } } }, { schemes: {} }]);
    expect(parsed.skills[0]?.securityRequirements).toEqual([{ schemes: { OAuth: { list: [] } } }]);
    expect(parsed.securitySchemes?.OAuth?.oauth2SecurityScheme?.flows.clientCredentials?.scopes).toEqual({});
    expect(parsed.securitySchemes?.Code?.oauth2SecurityScheme?.flows.authorizationCode?.scopes).toEqual({});
    expect(parsed).toMatchObject({
      description: '',
      defaultOutputModes: [],
      provider: { url: '', organization: 'Example' },
    });
    expect(parsed.skills[0]?.description).toBe('');
  });

  it('tasks, messages and stream responses', () => {
    expect(TaskSchema.parse(wire(sdk.Task, task))).toMatchObject({
      id: 't-1',
      status: { state: 'TASK_STATE_WORKING' },
    });
    expect(MessageSchema.parse(wire(sdk.Message, message()))).toEqual({
      messageId: 'm-1',
      role: 'ROLE_USER',
      parts: [{ text: '' }],
    });
    const events = [
      { task },
      { message: message({ role: 'ROLE_AGENT', contextId: 'c-1' }) },
      { statusUpdate: { taskId: 't-1', contextId: 'c-1', status: { state: 'TASK_STATE_COMPLETED' } } },
      {
        artifactUpdate: {
          taskId: 't-1',
          contextId: 'c-1',
          artifact: { artifactId: 'a-1', parts: [{ text: 'x' }] },
          append: false,
          lastChunk: false,
        },
      },
    ];
    for (const event of events)
      expect(StreamResponseSchema.safeParse(wire(sdk.StreamResponse, event)).error).toBeUndefined();
    expect(SendMessageResponseSchema.safeParse(wire(sdk.SendMessageResponse, { task })).success).toBe(true);
  });

  it('push configs', () => {
    expect(TaskPushNotificationConfigSchema.parse(wire(sdk.TaskPushNotificationConfig, pushConfig))).toEqual({
      url: 'https://hooks.example.com/a2a',
    });
    expect(
      TaskPushNotificationConfigSchema.parse(
        wire(sdk.TaskPushNotificationConfig, { ...pushConfig, authentication: { scheme: 'Bearer', credentials: '' } }),
      ).authentication,
    ).toEqual({ scheme: 'Bearer' });
  });

  it('every request, with its optional fields at their defaults', () => {
    const send = wire(sdk.SendMessageRequest, {
      tenant: '',
      message: message(),
      configuration: { acceptedOutputModes: [], returnImmediately: false },
    });
    expect(SendMessageRequestSchema.parse(send)).toEqual({
      message: { messageId: 'm-1', role: 'ROLE_USER', parts: [{ text: '' }] },
      configuration: {},
    });
    const requests: [{ safeParse(v: unknown): { success: boolean } }, unknown][] = [
      [GetTaskRequestSchema, wire(sdk.GetTaskRequest, { tenant: '', id: 't-1' })],
      [ListTasksRequestSchema, wire(sdk.ListTasksRequest, { tenant: '', contextId: '', pageToken: '', status: 0 })],
      [CancelTaskRequestSchema, wire(sdk.CancelTaskRequest, { tenant: '', id: 't-1' })],
      [SubscribeToTaskRequestSchema, wire(sdk.SubscribeToTaskRequest, { tenant: '', id: 't-1' })],
      [
        GetTaskPushNotificationConfigRequestSchema,
        wire(sdk.GetTaskPushNotificationConfigRequest, { taskId: 't', id: 'p' }),
      ],
      [
        DeleteTaskPushNotificationConfigRequestSchema,
        wire(sdk.DeleteTaskPushNotificationConfigRequest, { taskId: 't', id: 'p' }),
      ],
      [
        ListTaskPushNotificationConfigsRequestSchema,
        wire(sdk.ListTaskPushNotificationConfigsRequest, { taskId: 't', pageSize: 0, pageToken: '' }),
      ],
      [GetExtendedAgentCardRequestSchema, wire(sdk.GetExtendedAgentCardRequest, { tenant: '' })],
      // A writer that prints default values: a plain (not `optional`) int32 page size of 0 is its unset value.
      [ListTaskPushNotificationConfigsRequestSchema, { taskId: 't', pageSize: 0, pageToken: '' }],
    ];
    for (const [schema, value] of requests) expect(schema.safeParse(value).success, JSON.stringify(value)).toBe(true);
  });

  it('list responses, empty: every REQUIRED field omitted', () => {
    expect(ListTasksResponseSchema.parse(wire(sdk.ListTasksResponse, {}))).toEqual({
      tasks: [],
      nextPageToken: '',
      pageSize: 0,
      totalSize: 0,
    });
    expect(
      ListTaskPushNotificationConfigsResponseSchema.parse(wire(sdk.ListTaskPushNotificationConfigsResponse, {})),
    ).toEqual({ configs: [] });
  });

  it('the SendMessage shortcut agrees with the schema on what the SDK sends', () => {
    for (const fields of [{}, { contextId: 'c-1' }, { taskId: 't-1', parts: [{ text: 'a' }, { text: '' }] }]) {
      const params = wire(sdk.SendMessageRequest, { message: message(fields) });
      expect(simpleSendMessage(params)).toEqual(SendMessageRequestSchema.parse(params));
    }
  });
});

describe('what stays refused: REQUIRED fields that must not be empty', () => {
  it('an SDK message without parts or role, a card without skills, a skill without tags', () => {
    expect(MessageSchema.safeParse(wire(sdk.Message, message({ parts: [] }))).success).toBe(false);
    expect(MessageSchema.safeParse(wire(sdk.Message, message({ role: 'ROLE_UNSPECIFIED' }))).success).toBe(false);
    expect(MessageSchema.safeParse(wire(sdk.Message, message({ messageId: '' }))).success).toBe(false);
    expect(AgentCardSchema.safeParse({ ...(card as object), skills: [] }).success).toBe(false);
    const untagged = { ...(card as { skills: object[] }), skills: [{ id: 's', name: 's' }] };
    expect(AgentCardSchema.safeParse(untagged).success).toBe(false);
    expect(TaskSchema.safeParse(wire(sdk.Task, { ...task, id: '' })).success).toBe(false);
    expect(ListTasksRequestSchema.safeParse({ pageSize: 0 }).success).toBe(false); // `optional int32`: 0 is set
  });
});
