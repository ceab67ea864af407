import { describe, expect, it } from 'vitest';
import type { Task, TaskState } from './schemas/task.js';
import {
  applyTaskEvent,
  canTransition,
  copyTask,
  InvalidTransitionError,
  isInterrupted,
  isTerminal,
  newTask,
  viewTask,
} from './task-state.js';

const userMessage = { messageId: 'm1', role: 'ROLE_USER' as const, parts: [{ text: 'hi' }] };
const fresh = (): Task => newTask('t1', 'c1', userMessage, '2026-01-01T00:00:00.000Z');
const status = (state: TaskState) => ({
  kind: 'status' as const,
  status: { state, timestamp: '2026-01-01T00:00:01.000Z' },
});

describe('task state machine', () => {
  it('merges a metadata event into a new object (copies keep the old one); refused once finished', () => {
    const task = fresh();
    applyTaskEvent(task, { kind: 'metadata', metadata: { a: 1, b: 1 } });
    const copy = copyTask(task);
    applyTaskEvent(task, { kind: 'metadata', metadata: { b: 2 } });
    expect(task.metadata).toEqual({ a: 1, b: 2 });
    expect(copy.metadata).toEqual({ a: 1, b: 1 });
    applyTaskEvent(task, status('TASK_STATE_COMPLETED'));
    expect(() => applyTaskEvent(task, { kind: 'metadata', metadata: { c: 3 } })).toThrow(/metadata is final/);
    expect(task.metadata).toEqual({ a: 1, b: 2 });
  });

  it('knows terminal and interrupted states', () => {
    expect(
      ['TASK_STATE_COMPLETED', 'TASK_STATE_FAILED', 'TASK_STATE_CANCELED', 'TASK_STATE_REJECTED'].every((s) =>
        isTerminal(s as TaskState),
      ),
    ).toBe(true);
    expect(isTerminal('TASK_STATE_WORKING')).toBe(false);
    expect(isInterrupted('TASK_STATE_INPUT_REQUIRED')).toBe(true);
    expect(isInterrupted('TASK_STATE_AUTH_REQUIRED')).toBe(true);
    expect(isInterrupted('TASK_STATE_WORKING')).toBe(false);
  });

  it('allows the lifecycle edges and nothing out of a terminal state', () => {
    expect(canTransition('TASK_STATE_SUBMITTED', 'TASK_STATE_WORKING')).toBe(true);
    expect(canTransition('TASK_STATE_WORKING', 'TASK_STATE_WORKING')).toBe(true);
    expect(canTransition('TASK_STATE_WORKING', 'TASK_STATE_INPUT_REQUIRED')).toBe(true);
    expect(canTransition('TASK_STATE_INPUT_REQUIRED', 'TASK_STATE_WORKING')).toBe(true);
    expect(canTransition('TASK_STATE_WORKING', 'TASK_STATE_SUBMITTED')).toBe(false);
    for (const from of [
      'TASK_STATE_COMPLETED',
      'TASK_STATE_FAILED',
      'TASK_STATE_CANCELED',
      'TASK_STATE_REJECTED',
    ] as const) {
      for (const to of ['TASK_STATE_WORKING', 'TASK_STATE_COMPLETED', 'TASK_STATE_CANCELED'] as const) {
        expect(canTransition(from, to)).toBe(false);
      }
    }
  });

  it('throws a typed error for an illegal transition and leaves the task untouched', () => {
    const task = fresh();
    applyTaskEvent(task, status('TASK_STATE_COMPLETED'));
    const before = JSON.stringify(task);
    expect(() => applyTaskEvent(task, status('TASK_STATE_WORKING'))).toThrow(InvalidTransitionError);
    try {
      applyTaskEvent(task, status('TASK_STATE_WORKING'));
    } catch (error) {
      expect((error as InvalidTransitionError).from).toBe('TASK_STATE_COMPLETED');
      expect((error as InvalidTransitionError).code).toBe(-32006);
    }
    expect(JSON.stringify(task)).toBe(before);
  });

  it('appends artifact chunks in place and replaces without append', () => {
    const task = fresh();
    const chunk = (text: string, append?: boolean) => ({
      kind: 'artifact' as const,
      artifact: { artifactId: 'a', parts: [{ text }] },
      ...(append !== undefined && { append }),
    });
    applyTaskEvent(task, chunk('one'));
    const parts = task.artifacts?.[0]?.parts;
    applyTaskEvent(task, chunk('two', true));
    expect(task.artifacts?.[0]?.parts).toBe(parts); // same array: no copy per chunk
    expect(task.artifacts?.[0]?.parts.map((p) => p.text)).toEqual(['one', 'two']);
    applyTaskEvent(task, chunk('new'));
    expect(task.artifacts?.[0]?.parts.map((p) => p.text)).toEqual(['new']);
    expect(task.artifacts).toHaveLength(1);
  });

  it('refuses messages and artifacts on a finished task', () => {
    const task = fresh();
    applyTaskEvent(task, status('TASK_STATE_CANCELED'));
    expect(() => applyTaskEvent(task, { kind: 'history', message: userMessage })).toThrow(/accepts no messages/);
    expect(() =>
      applyTaskEvent(task, { kind: 'artifact', artifact: { artifactId: 'x', parts: [{ text: 'x' }] } }),
    ).toThrow();
  });

  it('views trim history and drop artifacts on request; copies are isolated', () => {
    const task = fresh();
    for (let i = 0; i < 4; i++)
      applyTaskEvent(task, { kind: 'history', message: { ...userMessage, messageId: `m${i + 2}` } });
    applyTaskEvent(task, { kind: 'artifact', artifact: { artifactId: 'a', parts: [{ text: 'x' }] } });
    expect(viewTask(task, { historyLength: 2 }).history?.map((m) => m.messageId)).toEqual(['m4', 'm5']);
    expect(viewTask(task, { historyLength: 0 }).history).toBeUndefined();
    expect(viewTask(task).history).toHaveLength(5);
    expect('artifacts' in viewTask(task, { includeArtifacts: false })).toBe(false);
    const copy = copyTask(task);
    applyTaskEvent(task, { kind: 'artifact', artifact: { artifactId: 'a', parts: [{ text: 'y' }] }, append: true });
    expect(copy.artifacts?.[0]?.parts).toHaveLength(1);
  });
});
