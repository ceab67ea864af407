import { describe, expect, it } from 'vitest';
import { InMemoryTaskStore, type Task, type TaskStore } from '../src/index.js';
import { failLostTask, LocalExecutions } from '../src/internal.js';

// The pieces `@a2a/postgres`'s and `@a2a/redis`'s lease coordinators share (server/local-executions.ts,
// server/fail-lost-task.ts); their multi-instance tests cover them end to end on real databases.

const execution = (taskId: string, aborted: string[]) => ({ taskId, abort: (reason: string) => aborted.push(reason) });

describe('LocalExecutions', () => {
  it('takes a lease for a task’s first execution and releases it after its last, once', () => {
    const calls: string[] = [];
    const local = new LocalExecutions(
      (taskId) => calls.push(`first ${taskId}`),
      (taskId, handOver) => calls.push(`last ${taskId} ${handOver}`),
    );
    const aborted: string[] = [];
    const a = local.track(execution('t1', aborted));
    const b = local.track(execution('t1', aborted));
    const c = local.track(execution('t2', aborted));
    expect(local.size).toBe(2);
    expect(local.taskIds()).toEqual(['t1', 't2']);
    local.abort('t1', 'Task canceled');
    expect(aborted).toEqual(['Task canceled', 'Task canceled']);
    a.release();
    a.release(); // a second release of the same execution must not end the task's other one
    expect(local.has('t1')).toBe(true);
    b.release(true);
    c.release();
    expect(calls).toEqual(['first t1', 'first t2', 'last t1 true', 'last t2 false']);
    expect(local.size).toBe(0);
    local.track(execution('t1', aborted));
    expect(calls.at(-1)).toBe('first t1'); // a new execution of a released task takes the lease again
  });
});

describe('failLostTask', () => {
  const working = (id: string): Task => ({
    id,
    contextId: 'c1',
    status: { state: 'TASK_STATE_WORKING', timestamp: new Date().toISOString() },
  });

  it('fails a running task once, naming the instance, and leaves a finished one alone', async () => {
    const store = new InMemoryTaskStore();
    await store.create(working('t1'), 'owner');
    expect(await failLostTask(store, 't1', 'instance-a')).toBe('failed');
    const stored = await store.get('t1');
    expect(stored?.task.status.state).toBe('TASK_STATE_FAILED');
    expect(stored?.task.status.message?.parts[0]).toEqual({
      text: 'Executor lost: instance instance-a stopped renewing its execution lease',
    });
    expect(await failLostTask(store, 't1', 'instance-a')).toBe('not-running');
    expect(await failLostTask(store, 'missing', undefined)).toBe('not-running');
  });

  it('says "moved" when the task changed between its read and its append', async () => {
    const store = new InMemoryTaskStore();
    await store.create(working('t2'), 'owner');
    const racing: TaskStore = Object.assign(Object.create(null), {
      get: async (taskId: string) => {
        const read = await store.get(taskId);
        // Another writer moves the task after the janitor read it: the janitor's version-checked append must lose.
        await store.append(taskId, read?.version ?? 0, {
          kind: 'status',
          status: { state: 'TASK_STATE_COMPLETED', timestamp: new Date().toISOString() },
        });
        return read;
      },
      append: (...args: Parameters<TaskStore['append']>) => store.append(...args),
    });
    expect(await failLostTask(racing, 't2', undefined)).toBe('moved');
    expect((await store.get('t2'))?.task.status.state).toBe('TASK_STATE_COMPLETED');
  });
});
