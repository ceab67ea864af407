import { LaterStore } from '@a2a/store-testsuite';
import { describe, expect, it } from 'vitest';
import { type AgentContext, createA2AHandler, InMemoryTaskStore, type TaskStore } from '../src/index.js';
import { writesNow } from '../src/internal.js';
import { card } from './helpers.js';

// `submitNow`, `statusNow` and `artifactNow` (for @a2a/sdk-compat, whose SDK executors publish without awaiting):
// with the in-memory store a write that can land at once is in the store when the call returns, and the call returns
// no promise; anything else (a queued step, a store that writes asynchronously, a chunk without parts) takes the
// helper's own path and returns its promise. Either way the task ends the same.

async function run(store: TaskStore, execute: (ctx: AgentContext) => Promise<unknown> | unknown) {
  const a2a = createA2AHandler({
    agentCard: { ...card, capabilities: { streaming: true } },
    // (The calls are made in `execute()`'s synchronous part: the wrapper's `await` comes after them.)
    executor: {
      execute: async (ctx) => {
        await execute(ctx);
      },
    },
    taskStore: store,
  });
  const result = (await a2a.requestHandler.sendMessage(
    { message: { messageId: crypto.randomUUID(), role: 'ROLE_USER', parts: [{ text: 'hi' }] } },
    {},
  )) as { task: { id: string; status: { state: string }; artifacts?: { parts: { text?: string }[] }[] } };
  return result.task;
}

describe('writes made at once for an adapter that does not await its helpers', () => {
  it('land in the in-memory store before the call returns, without a promise', async () => {
    const store = new InMemoryTaskStore();
    const seen: unknown[] = [];
    const task = await run(store, (ctx) => {
      const now = writesNow(ctx);
      if (!now) throw new Error('not the engine’s execution');
      seen.push(now.submitNow());
      seen.push(now.statusNow('TASK_STATE_WORKING'));
      seen.push(now.artifactNow({ artifactId: 'a', text: 'one' }));
      // (The store is read here, synchronously after the calls: `get` reads when called.)
      const stored = store.get(ctx.taskId);
      seen.push(now.statusNow('TASK_STATE_COMPLETED', 'done'));
      return stored.then((found) => seen.push(found?.task.status.state, found?.task.artifacts?.length));
    });
    expect(seen).toEqual([undefined, undefined, undefined, undefined, 'TASK_STATE_WORKING', 1]);
    expect(task.status.state).toBe('TASK_STATE_COMPLETED');
    expect(task.artifacts?.[0]?.parts).toEqual([{ text: 'one' }]);
  });

  it('behind a step still queued: the helper’s promise, in call order', async () => {
    const store = new InMemoryTaskStore();
    let returned: unknown;
    const task = await run(store, (ctx) => {
      const now = writesNow(ctx);
      now?.submitNow();
      // The next append lands a turn later (as a remote store's would); the ones after it at once again. A step that
      // lands at once is over (docs/performance.md, "Steps that land at once"), so only a late one keeps the next queued.
      store.append = async (...args) => {
        Reflect.deleteProperty(store, 'append');
        await null;
        return store.append(...args);
      };
      void ctx.working();
      void ctx.artifact({ artifactId: 'a', text: 'one' });
      returned = now?.artifactNow({ artifactId: 'a', text: 'two', append: true });
      return now?.statusNow('TASK_STATE_COMPLETED');
    });
    expect(returned).toBeInstanceOf(Promise);
    expect(task.status.state).toBe('TASK_STATE_COMPLETED');
    expect(task.artifacts?.[0]?.parts.map((part) => part.text)).toEqual(['one', 'two']);
  });

  it('with a store that writes later: the helper’s promise, the same task', async () => {
    const store = new LaterStore();
    const returned: unknown[] = [];
    const task = await run(store, async (ctx) => {
      const now = writesNow(ctx);
      returned.push(now?.submitNow());
      await returned[0];
      returned.push(now?.artifactNow({ artifactId: 'a', text: 'one' }));
      await returned[1];
      returned.push(now?.statusNow('TASK_STATE_COMPLETED'));
      await returned[2];
    });
    expect(returned.map((value) => value instanceof Promise)).toEqual([true, true, true]);
    expect(task.status.state).toBe('TASK_STATE_COMPLETED');
    expect(task.artifacts?.[0]?.parts).toEqual([{ text: 'one' }]);
  });

  it('a chunk without parts is refused as `artifact` refuses it', async () => {
    let refusal: unknown;
    await run(new InMemoryTaskStore(), async (ctx) => {
      await writesNow(ctx)
        ?.artifactNow({ artifactId: 'a' })
        ?.catch((error: unknown) => {
          refusal = error;
        });
      return ctx.complete();
    });
    expect(refusal).toMatchObject({ message: 'An artifact needs parts' });
  });
});
