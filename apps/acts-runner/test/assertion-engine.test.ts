import { describe, expect, it } from 'vitest';
import { check, classifyMap, parseUntil } from '../src/assertion-engine.js';
import { toRequest } from '../src/bindings/binding.js';
import { collectPath, resolvePath } from '../src/paths.js';
import { checkMonotonic, checkStream } from '../src/stream-assertions.js';
import { interpolate, type Scope } from '../src/variables.js';

const ok = (actual: unknown, assertion: unknown) => check(actual, assertion).length === 0;

describe('assertions', () => {
  const task = {
    id: 't1',
    status: { state: 'TASK_STATE_COMPLETED' },
    artifacts: [{ parts: [{ text: 'a' }, { data: {} }] }],
  };

  it('exact values, nested maps and positional lists', () => {
    expect(ok(task, { id: 't1', status: { state: 'TASK_STATE_COMPLETED' } })).toBe(true);
    expect(ok(task, { artifacts: [{ parts: [{ text: 'a' }] }] })).toBe(true);
    expect(check(task, { status: { state: 'TASK_STATE_FAILED' } })).toEqual([
      expect.objectContaining({
        path: 'status.state',
        expected: '"TASK_STATE_FAILED"',
        actual: '"TASK_STATE_COMPLETED"',
      }),
    ]);
    expect(check(task, { artifacts: [{}, {}] })[0]?.message).toBe('missing element 1');
    expect(ok({ n: 1 }, { n: '1' })).toBe(false);
  });

  it('operators', () => {
    expect(
      ok('TASK_STATE_WORKING', { type: 'string', starts_with: 'TASK_', ends_with: 'KING', contains: 'STATE' }),
    ).toBe(true);
    expect(ok('abc', { matches: '^a.c$' })).toBe(true);
    expect(ok(5, { gte: 5, lte: 5, gt: 4, lt: 6 })).toBe(true);
    expect(ok(5, { gt: 5 })).toBe(false);
    expect(ok([1, 2], { count: 2, count_gte: 1, count_lte: 2, type: 'array' })).toBe(true);
    expect(ok(null, { type: 'null' })).toBe(true);
    expect(ok({}, { type: 'object' })).toBe(true);
    expect(ok(undefined, { absent: true })).toBe(true);
    expect(ok(null, { exists: true })).toBe(true);
    expect(ok(undefined, { type: 'string' })).toBe(false);
    expect(ok('x', { not: { type: 'number' } })).toBe(true);
    expect(ok('x', { all_of: [{ type: 'string' }, { contains: 'y' }] })).toBe(false);
    expect(ok(undefined, { any_of: [{ absent: true }, { type: 'array', count: 0 }] })).toBe(true);
    expect(ok([], { any_of: [{ absent: true }, { type: 'array', count: 0 }] })).toBe(true);
  });

  it('one_of compares scalars and matches maps as patterns', () => {
    expect(ok('b', { one_of: ['a', 'b'] })).toBe(true);
    expect(ok(200, { one_of: [401, 403] })).toBe(false);
    expect(
      ok(
        { task: { status: { state: 'X' } } },
        { one_of: [{ message: { exists: true } }, { task: { status: { exists: true } } }] },
      ),
    ).toBe(true);
  });

  it('reads a member named like an operator that holds a map as a field', () => {
    expect(classifyMap({ type: { type: 'string' }, title: { type: 'string' } })).toBe('fields');
    expect(classifyMap({ type: 'array', count_gte: 1 })).toBe('operators');
    expect(classifyMap({ type: 'array', items: {} })).toBe('mixed');
    expect(() => check([], { type: 'array', items: {} })).toThrow(/mixes operators and fields/);
  });

  it('until expressions', () => {
    const resolve = (root: unknown, path: string) => resolvePath(root, path).value;
    expect(parseUntil('status.state in [TASK_STATE_COMPLETED, TASK_STATE_FAILED]')(task, resolve)).toBe(true);
    expect(parseUntil('status.state == TASK_STATE_WORKING')(task, resolve)).toBe(false);
    expect(parseUntil('status.state != "TASK_STATE_WORKING"')(task, resolve)).toBe(true);
    expect(parseUntil('artifacts[0].parts[0].text == a')(task, resolve)).toBe(true);
  });
});

describe('paths and variables', () => {
  it('resolves dot paths with indexes and wildcards', () => {
    const root = { task: { artifacts: [{ parts: [{ text: 'a' }, { text: 'b' }] }, { parts: [{ text: 'c' }] }] } };
    expect(resolvePath(root, 'task.artifacts[1].parts[0].text')).toEqual({ found: true, value: 'c' });
    expect(resolvePath(root, 'task.missing')).toEqual({ found: false });
    expect(collectPath(root, 'task.artifacts[*].parts[*].text')).toEqual(['a', 'b', 'c']);
    expect(() => resolvePath(root, 'a..b')).toThrow(/invalid path/);
  });

  it('interpolates captures, runner and document variables, env and $uuid', () => {
    const scope: Scope = {
      captures: new Map([['send', { taskId: 't1', response: { task: { id: 't1' } } }]]),
      runner: { webhookUrl: 'http://127.0.0.1:1/webhook' },
      document: { webhookUrl: 'https://example.com', greeting: 'hi {{who}}', who: 'you' },
      env: { HOME_X: 'h' },
    };
    expect(
      interpolate({ id: '{{send.taskId}}', url: '{{webhookUrl}}', g: '{{greeting}}!', e: '{{env.HOME_X}}' }, scope),
    ).toEqual({
      id: 't1',
      url: 'http://127.0.0.1:1/webhook',
      g: 'hi you!',
      e: 'h',
    });
    expect(interpolate('{{send.response}}', scope)).toEqual({ task: { id: 't1' } });
    expect(interpolate('{{$uuid}}', scope)).toMatch(/^[0-9a-f-]{36}$/);
    expect(() => interpolate('{{nope}}', scope)).toThrow(/not defined/);
    expect(() => interpolate('{{other.x}}', scope)).toThrow(/no earlier step "other"/);
  });
});

describe('requests', () => {
  it('gives a message an id and moves taskId / contextId beside it into it', () => {
    const request = toRequest('send_message', {
      taskId: 't',
      contextId: 'c',
      message: { role: 'ROLE_USER', parts: [] },
    });
    expect(request).toEqual({
      message: { role: 'ROLE_USER', parts: [], taskId: 't', contextId: 'c', messageId: expect.any(String) },
    });
    expect(toRequest('create_push_config', { taskId: 't', pushNotificationConfig: { url: 'u' } })).toEqual({
      taskId: 't',
      url: 'u',
    });
  });
});

describe('streams', () => {
  const status = (state: string) => ({ statusUpdate: { status: { state } } });
  it('monotonic_state', () => {
    expect(
      checkMonotonic([
        { task: { status: { state: 'TASK_STATE_SUBMITTED' } } },
        status('TASK_STATE_WORKING'),
        status('TASK_STATE_COMPLETED'),
        { task: { status: { state: 'TASK_STATE_COMPLETED' } } },
      ]),
    ).toEqual([]);
    expect(checkMonotonic([status('TASK_STATE_COMPLETED'), status('TASK_STATE_WORKING')])[0]?.message).toMatch(
      /after terminal/,
    );
    expect(checkMonotonic([status('TASK_STATE_WORKING'), status('TASK_STATE_SUBMITTED')])[0]?.message).toMatch(
      /back to SUBMITTED/,
    );
    expect(checkMonotonic([status('TASK_STATE_INPUT_REQUIRED'), status('TASK_STATE_WORKING')])).toEqual([]);
  });

  it('events, final_event and each_event see the payload under its kind and directly', () => {
    const events = [
      status('TASK_STATE_WORKING'),
      { artifactUpdate: { artifact: { parts: [{ text: 'x' }] } } },
      status('TASK_STATE_COMPLETED'),
    ];
    expect(
      checkStream(events, {
        min_count: 3,
        max_count: 3,
        events: [
          { index: 0, status_update: { status: { state: 'TASK_STATE_WORKING' } } },
          { match: 'any_position', artifact: { exists: true } },
        ],
        final_event: { status: { state: 'TASK_STATE_COMPLETED' } },
        each_event: { taskId: { absent: true } },
      }),
    ).toEqual([]);
    expect(checkStream(events, { min_count: 4 })[0]?.message).toBe('expected at least 4 events, got 3');
    expect(checkStream(events, { events: [{ match: 'any_position', message: { exists: true } }] })).toHaveLength(1);
  });
});
