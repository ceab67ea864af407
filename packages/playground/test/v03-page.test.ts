import type { StreamResponse } from '@a2a/core';
import { fromV03Message, fromV03StreamResult, toV03StreamResult } from '@a2a/core/internal';
import { describe, expect, it } from 'vitest';
import type { Message } from '../ui/types.js';
import { fromV03Result, toV03Message } from '../ui/v03.js';

// The page keeps its own zod-free v0.3 reader (reason at the top of ui/v03.ts); these tests hold it to core's.

describe("the page's v0.3 translation", () => {
  it('writes messages with core’s writer, so a v0.3 agent reads back what the page sent', () => {
    const message: Message = {
      messageId: 'm1',
      role: 'ROLE_USER',
      contextId: 'c1',
      parts: [
        { text: 'hello' },
        { raw: 'aGk=', filename: 'note.txt', mediaType: 'text/plain' },
        { data: { answer: 42 }, mediaType: 'application/json' },
        { data: 42, mediaType: 'application/json' },
        { data: [1, 2], mediaType: 'application/json' },
      ],
    };
    const wire = toV03Message(message);
    expect((wire.parts as unknown[])[3]).toEqual({
      kind: 'data',
      data: { value: 42 },
      metadata: { data_part_compat: true },
    });
    expect(fromV03Message(wire)).toEqual({
      messageId: 'm1',
      role: 'ROLE_USER',
      contextId: 'c1',
      parts: [
        { text: 'hello' },
        { raw: 'aGk=', filename: 'note.txt', mediaType: 'text/plain' },
        { data: { answer: 42 } },
        { data: 42 },
        { data: [1, 2] },
      ],
    });
  });

  it('reads what a v0.3 agent sends as core’s reader does', () => {
    const results: StreamResponse[] = [
      {
        task: {
          id: 't',
          contextId: 'c',
          status: { state: 'TASK_STATE_INPUT_REQUIRED', timestamp: '2026-01-01T00:00:00.000Z' },
          artifacts: [{ artifactId: 'a', name: 'poem', parts: [{ text: 'line' }] }],
          history: [{ messageId: 'm', role: 'ROLE_USER', contextId: 'c', taskId: 't', parts: [{ text: 'hi' }] }],
        },
      },
      { message: { messageId: 'm', role: 'ROLE_AGENT', parts: [{ url: 'https://x.test/f', filename: 'f' }] } },
      {
        statusUpdate: {
          taskId: 't',
          contextId: 'c',
          status: {
            state: 'TASK_STATE_CANCELED',
            message: { messageId: 's', role: 'ROLE_AGENT', parts: [{ data: { k: 1 } }] },
          },
        },
      },
      {
        artifactUpdate: {
          taskId: 't',
          contextId: 'c',
          artifact: { artifactId: 'a', parts: [{ raw: 'aGk=', mediaType: 'text/plain' }] },
          append: true,
          lastChunk: false,
        },
      },
    ];
    for (const result of results) {
      const wire = toV03StreamResult(result);
      expect(fromV03Result(wire)).toEqual(fromV03StreamResult(wire));
    }
  });
});
