import * as sdk from '@a2a-js/sdk';
import { AgentEvent } from '@a2a-js/sdk/server';
import { describe, expect, it, vi } from 'vitest';
import { fromSdkEvent } from './sdk-codec.js';

const part = (value: string, extra: Partial<sdk.Part> = {}): sdk.Part => ({
  content: { $case: 'text', value },
  metadata: undefined,
  filename: '',
  mediaType: '',
  ...extra,
});

const artifactUpdates: sdk.TaskArtifactUpdateEvent[] = [
  {
    taskId: 't',
    contextId: 'c',
    artifact: { artifactId: 'a', name: '', description: '', parts: [part('x')], metadata: undefined, extensions: [] },
    append: false,
    lastChunk: false,
    metadata: undefined,
  },
  {
    taskId: 't',
    contextId: 'c',
    artifact: {
      artifactId: 'a',
      name: 'n',
      description: 'd',
      parts: [part('x', { mediaType: 'text/plain', filename: 'f.txt' }), part('')],
      metadata: undefined,
      extensions: [],
    },
    append: true,
    lastChunk: true,
    metadata: undefined,
  },
  // Shapes the fast path leaves to toJSON: metadata anywhere, extensions, a data or raw part.
  {
    taskId: 't',
    contextId: 'c',
    artifact: {
      artifactId: 'a',
      name: '',
      description: '',
      parts: [part('x', { metadata: { k: 1 } })],
      metadata: { m: 2 },
      extensions: ['e'],
    },
    append: false,
    lastChunk: false,
    metadata: { z: 3 },
  },
  {
    taskId: 't',
    contextId: 'c',
    artifact: {
      artifactId: 'a',
      name: '',
      description: '',
      parts: [
        { content: { $case: 'data', value: { a: 1 } }, metadata: undefined, filename: '', mediaType: '' },
        {
          content: { $case: 'raw', value: Buffer.from('hi') },
          metadata: undefined,
          filename: '',
          mediaType: 'text/plain',
        },
      ],
      metadata: undefined,
      extensions: [],
    },
    append: false,
    lastChunk: false,
    metadata: undefined,
  },
];

const statusUpdates: sdk.TaskStatusUpdateEvent[] = [
  {
    taskId: 't',
    contextId: 'c',
    status: { state: sdk.TaskState.TASK_STATE_WORKING, message: undefined, timestamp: '2026-01-01T00:00:00Z' },
    metadata: undefined,
  },
  {
    taskId: 't',
    contextId: 'c',
    status: { state: sdk.TaskState.TASK_STATE_COMPLETED, message: undefined, timestamp: undefined },
    metadata: undefined,
  },
  {
    taskId: 't',
    contextId: 'c',
    status: {
      state: sdk.TaskState.TASK_STATE_FAILED,
      message: {
        messageId: 'm',
        contextId: 'c',
        taskId: 't',
        role: sdk.Role.ROLE_AGENT,
        parts: [part('no')],
        metadata: undefined,
        extensions: [],
        referenceTaskIds: [],
      },
      timestamp: undefined,
    },
    metadata: { k: 1 },
  },
];

const artifactOf = (update: sdk.TaskArtifactUpdateEvent | undefined) => update?.artifact as sdk.Artifact;
const tasks: sdk.Task[] = [
  {
    id: 't',
    contextId: 'c',
    status: { state: sdk.TaskState.TASK_STATE_COMPLETED, message: undefined, timestamp: '2026-01-01T00:00:00Z' },
    artifacts: [artifactOf(artifactUpdates[0]), artifactOf(artifactUpdates[1])],
    history: [],
    metadata: undefined,
  },
  {
    id: '',
    contextId: '',
    status: { state: sdk.TaskState.TASK_STATE_SUBMITTED, message: undefined, timestamp: undefined },
    artifacts: [],
    history: [],
    metadata: undefined,
  },
  // Shapes the fast path leaves to toJSON: metadata, a status message, an artifact with metadata or a data part.
  {
    id: 't',
    contextId: 'c',
    status: { state: sdk.TaskState.TASK_STATE_WORKING, message: undefined, timestamp: undefined },
    artifacts: [],
    history: [],
    metadata: { k: 1 },
  },
  {
    id: 't',
    contextId: 'c',
    status: (statusUpdates[2] as sdk.TaskStatusUpdateEvent).status,
    artifacts: [],
    history: [],
    metadata: undefined,
  },
  {
    id: 't',
    contextId: 'c',
    status: { state: sdk.TaskState.TASK_STATE_COMPLETED, message: undefined, timestamp: undefined },
    artifacts: [artifactOf(artifactUpdates[2]), artifactOf(artifactUpdates[3])],
    history: [],
    metadata: undefined,
  },
];

describe('fromSdkEvent', () => {
  it.each(tasks.map((task, i) => [i, task] as const))(
    'task %i reads as the SDK’s own toJSON writes it, without its history',
    (_, task) => {
      const withHistory = {
        ...task,
        history: [{ ...sdk.Message.fromJSON({ messageId: 'h', parts: [{ text: 'x' }] }) }],
      };
      expect(fromSdkEvent(AgentEvent.task(withHistory))).toEqual({
        kind: 'task',
        task: sdk.Task.toJSON({ ...task, history: [] }),
      });
    },
  );

  it.each(artifactUpdates.map((update, i) => [i, update] as const))(
    'artifact update %i reads as the SDK’s own toJSON writes it',
    (_, update) => {
      const json = sdk.TaskArtifactUpdateEvent.toJSON(update) as Record<string, unknown>;
      expect(fromSdkEvent(AgentEvent.artifactUpdate(update))).toEqual({
        kind: 'artifact',
        taskId: json.taskId,
        artifact: json.artifact,
        append: json.append,
        lastChunk: json.lastChunk,
        metadata: json.metadata,
        taskMetadata: json.metadata,
      });
    },
  );

  it.each(statusUpdates.map((update, i) => [i, update] as const))(
    'status update %i reads as the SDK’s own toJSON writes it',
    (_, update) => {
      const json = sdk.TaskStatusUpdateEvent.toJSON(update) as Record<string, unknown>;
      expect(fromSdkEvent(AgentEvent.statusUpdate(update))).toEqual({
        kind: 'status',
        taskId: json.taskId,
        status: json.status,
        metadata: json.metadata,
        taskMetadata: json.metadata,
      });
    },
  );

  it('an unspecified state is unreadable on either path', () => {
    const update = {
      ...statusUpdates[0],
      status: { state: 0, message: undefined, timestamp: undefined },
    } as sdk.TaskStatusUpdateEvent;
    expect(fromSdkEvent(AgentEvent.statusUpdate(update))).toEqual({
      kind: 'invalid',
      reason: 'a status update has no state',
    });
  });

  it('plain text chunks, bare status updates and plain tasks skip the generic toJSON (the fast path is taken)', () => {
    const artifactJson = vi.spyOn(sdk.TaskArtifactUpdateEvent, 'toJSON');
    const statusJson = vi.spyOn(sdk.TaskStatusUpdateEvent, 'toJSON');
    fromSdkEvent(AgentEvent.artifactUpdate(artifactUpdates[1] as sdk.TaskArtifactUpdateEvent));
    fromSdkEvent(AgentEvent.statusUpdate(statusUpdates[0] as sdk.TaskStatusUpdateEvent));
    expect([artifactJson.mock.calls.length, statusJson.mock.calls.length]).toEqual([0, 0]);
    fromSdkEvent(AgentEvent.artifactUpdate(artifactUpdates[2] as sdk.TaskArtifactUpdateEvent));
    expect(artifactJson).toHaveBeenCalledTimes(1);
    const taskJson = vi.spyOn(sdk.Task, 'toJSON');
    fromSdkEvent(AgentEvent.task(tasks[0] as sdk.Task));
    expect(taskJson).not.toHaveBeenCalled();
    fromSdkEvent(AgentEvent.task(tasks[4] as sdk.Task));
    expect(taskJson).toHaveBeenCalledTimes(1);
    vi.restoreAllMocks();
  });
});
