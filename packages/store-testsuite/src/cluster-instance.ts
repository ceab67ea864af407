import { createServer } from 'node:http';
import { setTimeout as wait } from 'node:timers/promises';
import {
  type AgentContext,
  createA2AHandler,
  type ExecutionCoordinator,
  type PushConfigStore,
  type TaskStore,
} from '@a2a/core';
import { createNodeHandler } from '@a2a/core/node';

// One A2A server instance of a multi-instance test (see cluster.ts): node:http + core's node bridge on the store it is
// given. Prints {"port": n} once listening, and {"aborted": taskId} when an executor's signal aborts. The agent:
// `steps N delay MS` appends N artifact chunks MS apart, `hang` runs until aborted, anything else completes with an
// echo. SIGTERM closes it gracefully (A2A_SHUTDOWN_TIMEOUT_MS for running tasks, default 25 s), then the store.

/** What a store package's setup from the environment gives (`createTaskStoreFromEnv()`). */
export interface ClusterInstanceSetup {
  taskStore: TaskStore & PushConfigStore;
  coordinator: ExecutionCoordinator | undefined;
  close(): Promise<void>;
}

/** Resolves after `ms`, or early when the signal aborts (a canceled task stops waiting). */
const sleep = (ms: number, signal: AbortSignal) => wait(ms, undefined, { signal }).catch(() => {});

async function execute(ctx: AgentContext): Promise<void> {
  ctx.signal.addEventListener('abort', () => console.log(JSON.stringify({ aborted: ctx.taskId })), { once: true });
  const text = ctx.message.parts.map((p) => ('text' in p ? p.text : '')).join('');
  await ctx.working();
  const steps = /^steps (\d+) delay (\d+)$/.exec(text);
  if (steps) {
    for (let i = 0; i < Number(steps[1]) && !ctx.signal.aborted; i++) {
      await ctx.artifact({ artifactId: 'out', text: `${i},`, append: i > 0 });
      await sleep(Number(steps[2]), ctx.signal);
    }
    if (!ctx.signal.aborted) await ctx.complete('done');
    return;
  }
  if (text === 'hang') {
    await new Promise<void>((resolve) => ctx.signal.addEventListener('abort', () => resolve(), { once: true }));
    return;
  }
  await ctx.complete(`echo: ${text}`);
}

/** Serves the test agent on 127.0.0.1 port 0 from `setup`'s store, as the instance `name`. */
export function serveClusterInstance(name: string, setup: ClusterInstanceSetup): void {
  const a2a = createA2AHandler({
    agentCard: {
      name,
      description: 'multi-instance test agent',
      version: '1.0.0',
      capabilities: { streaming: true, pushNotifications: true },
      skills: [{ id: 'echo', name: 'Echo', description: 'Echoes', tags: ['test'] }],
    },
    executor: { execute },
    taskStore: setup.taskStore,
    ...(setup.coordinator && { coordinator: setup.coordinator }),
    keepAliveMs: 500,
    onError: (error) => console.error('[fixture]', error),
  });
  const server = createServer(createNodeHandler(a2a));
  server.listen(0, '127.0.0.1', () => {
    console.log(JSON.stringify({ port: (server.address() as { port: number }).port }));
  });
  // Graceful: new requests get 503, streams end, running tasks get A2A_SHUTDOWN_TIMEOUT_MS, leases are released.
  process.once('SIGTERM', () => {
    void a2a
      .close({ timeoutMs: Number(process.env.A2A_SHUTDOWN_TIMEOUT_MS ?? 25_000) })
      .then(() => {
        server.closeAllConnections();
        server.close();
        return setup.close();
      })
      .then(() => process.exit(0));
  });
}
