import type { StreamResponse } from '@a2a/core';
import { toV03StreamResult } from '@a2a/core/internal';
import { describe, expect, it } from 'vitest';
import { createWebhookReceiver, WebhookError } from '../src/index.js';

// v0.3 bodies are read by core's v0.3 reader (fromV03StreamResult). Where the receiver used to accept more than that
// reader, the tolerance is kept (a refused notification is lost); where core reads the v0.3 spec more faithfully,
// core's reading wins. One test per difference between the two readers.

const receiver = createWebhookReceiver({ allowUnauthenticated: true });
const read = async (body: unknown) => (await receiver.verify(JSON.stringify(body), {})).body;
const refusal = async (body: unknown) => {
  const error = await receiver.verify(JSON.stringify(body), {}).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(WebhookError);
  return error as WebhookError;
};

const statusUpdate = (status: unknown) => ({ kind: 'status-update', taskId: 't', contextId: 'c', status });
const message = (parts: unknown[], extra: object = {}) => ({
  kind: 'message',
  messageId: 'm',
  role: 'agent',
  parts,
  ...extra,
});
const partsOf = async (parts: unknown[]) => {
  const body = await read(message(parts));
  return 'message' in body ? body.message.parts : undefined;
};

describe('v0.3 push bodies', () => {
  it('round-trips what core sends to a v0.3 webhook, a non-object data value included (data_part_compat)', async () => {
    const bodies: StreamResponse[] = [
      {
        message: {
          messageId: 'm',
          role: 'ROLE_AGENT',
          parts: [{ data: 42 }, { data: ['a'] }, { data: { value: 1 }, metadata: { k: 'v' } }, { text: 'x' }],
        },
      },
      {
        artifactUpdate: {
          taskId: 't',
          contextId: 'c',
          artifact: { artifactId: 'a', parts: [{ raw: 'aGk=', filename: 'f', mediaType: 'text/plain' }] },
          append: true,
        },
      },
      { task: { id: 't', contextId: 'c', status: { state: 'TASK_STATE_CANCELED' }, history: [] } },
    ];
    for (const body of bodies) {
      const notification = await receiver.verify(JSON.stringify(toV03StreamResult(body)), {});
      expect(notification.protocolVersion).toBe('0.3');
      expect(notification.body).toEqual(body);
    }
  });

  it('accepts v0.3-era ProtoJSON and other spellings of a state that core reads only in v0.3 form', async () => {
    const states = ['TASK_STATE_CANCELLED', 'TASK_STATE_CANCELED', 'cancelled', 'Canceled', 'CANCELED', 5];
    for (const state of states) {
      expect(await read(statusUpdate({ state }))).toEqual({
        statusUpdate: { taskId: 't', contextId: 'c', status: { state: 'TASK_STATE_CANCELED' } },
      });
    }
    expect(await read(statusUpdate({ state: 'INPUT_REQUIRED' }))).toMatchObject({
      statusUpdate: { status: { state: 'TASK_STATE_INPUT_REQUIRED' } },
    });
    expect((await refusal(statusUpdate({ state: 'unknown' }))).status).toBe(400);
    expect((await refusal(statusUpdate({ state: 'TASK_STATE_UNSPECIFIED' }))).status).toBe(400);
  });

  it('accepts ProtoJSON roles (ROLE_USER, ROLE_AGENT, numbers)', async () => {
    for (const [role, want] of [
      ['ROLE_USER', 'ROLE_USER'],
      ['ROLE_AGENT', 'ROLE_AGENT'],
      [1, 'ROLE_USER'],
      [2, 'ROLE_AGENT'],
    ]) {
      expect(await read(message([{ kind: 'text', text: 'x' }], { role }))).toMatchObject({ message: { role: want } });
    }
    expect((await refusal(message([{ kind: 'text', text: 'x' }], { role: 'ROLE_UNSPECIFIED' }))).status).toBe(400);
  });

  it("drops a status message that is not an object and ignores a nested message's kind", async () => {
    expect(await read(statusUpdate({ state: 'working', message: 'hi' }))).toEqual({
      statusUpdate: { taskId: 't', contextId: 'c', status: { state: 'TASK_STATE_WORKING' } },
    });
    const nested = { kind: 'task', messageId: 's', role: 'agent', parts: [{ kind: 'text', text: 'x' }] };
    expect(await read(statusUpdate({ state: 'working', message: nested }))).toMatchObject({
      statusUpdate: { status: { message: { messageId: 's', role: 'ROLE_AGENT', parts: [{ text: 'x' }] } } },
    });
  });

  it('accepts non-object data, which v0.3 does not allow', async () => {
    expect(
      await partsOf([
        { kind: 'data', data: 'x' },
        { kind: 'data', data: [1], metadata: { k: 1 } },
        { kind: 'data', data: 0 },
      ]),
    ).toEqual([{ data: 'x' }, { data: [1], metadata: { k: 1 } }, { data: 0 }]);
  });

  it('reads a file with both bytes and uri as bytes, and drops a name or mimeType that is not a string', async () => {
    expect(
      await partsOf([
        { kind: 'file', file: { bytes: 'aGk=', uri: 'https://x.test/f', name: 'f', mimeType: 'text/plain' } },
        { kind: 'file', file: { uri: 'https://x.test/f', name: 3, mimeType: false } },
      ]),
    ).toEqual([{ raw: 'aGk=', filename: 'f', mediaType: 'text/plain' }, { url: 'https://x.test/f' }]);
  });

  it('reads bytes: null as unset (ProtoJSON), so a file part with null bytes and a uri is its uri', async () => {
    expect(await partsOf([{ kind: 'file', file: { bytes: null, uri: 'https://x.test/f' } }])).toEqual([
      { url: 'https://x.test/f' },
    ]);
  });

  it('reads a part with no v0.3 kind (or an unknown one) as a v1.0 part', async () => {
    expect(
      await partsOf([
        { text: 'x' },
        { url: 'https://x.test/f', filename: 'f', media_type: 'text/plain' },
        { raw: 'aGk=' },
        { kind: 'image', data: 7, metadata: { k: 1 } },
      ]),
    ).toEqual([
      { text: 'x' },
      { url: 'https://x.test/f', filename: 'f', mediaType: 'text/plain' },
      { raw: 'aGk=' },
      { data: 7, metadata: { k: 1 } },
    ]);
    expect((await refusal(message([{ text: 'x', url: 'https://x.test/f' }]))).status).toBe(400);
  });

  it('refuses what neither reader accepts with a 400 that names the field', async () => {
    expect((await refusal(statusUpdate({ state: 'bogus' }))).message).toMatch(/\(status\.state: unknown state "bogus"/);
    expect((await refusal({ kind: 'task-status' })).message).toMatch(/\(kind: unknown result kind/);
    expect((await refusal(message([{ kind: 'file', file: {} }]))).message).toMatch(/parts\[0\]\.file: must have/);
    expect((await refusal(message([]))).status).toBe(400);
  });
});
