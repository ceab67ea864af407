import {
  type A2AHttpHandler,
  type AgentCardInput,
  type AgentExecutor,
  createA2AHandler,
  type ExecutionCoordinator,
  InMemoryTaskStore,
  type PushConfigStore,
  type StoredTask,
  type TaskEventRecord,
  type TaskPushNotificationConfig,
  type TaskStore,
} from '@a2a/core';
import { countClientWrites } from './write-counter.js';

export const FIXTURE_CARD: AgentCardInput = {
  name: 'Conformance fixture',
  description: 'The agent the adapter conformance suite talks to',
  version: '1.0.0',
  capabilities: { streaming: true, pushNotifications: true },
  skills: [{ id: 'echo', name: 'Echo', description: 'Echoes the input', tags: ['test'] }],
};

/** The card of the security cases: an HTTP Bearer scheme, required, with the `agent:use` scope. */
export const SECURED_CARD: AgentCardInput = {
  ...FIXTURE_CARD,
  securitySchemes: { bearer: { httpAuthSecurityScheme: { scheme: 'Bearer' } } },
  securityRequirements: [{ schemes: { bearer: { list: ['agent:use'] } } }],
} as AgentCardInput;

/** The largest body the fixture accepts: below every framework parser's default limit is NOT assumed. */
export const FIXTURE_MAX_BODY = 64 * 1024;
export const FIXTURE_KEEPALIVE_MS = 40;

interface Deferred {
  promise: Promise<void>;
  resolve(): void;
}
const deferred = (): Deferred => {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => {
    resolve = r;
  });
  return { promise, resolve };
};

/** A store that counts live subscriptions per task, so the suite can see a stream being released server-side. */
class CountingStore extends InMemoryTaskStore {
  readonly open = new Map<string, number>();
  /** Tasks whose live subscriptions fail on their next record (a store outage as a stream sees it). */
  readonly failing = new Set<string>();
  /** Writes a client's request makes (tasks, user messages, push configs); agents' own events are not counted. */
  clientWrites = 0;
  override create(...args: Parameters<InMemoryTaskStore['create']>): Promise<StoredTask> {
    this.clientWrites++;
    return super.create(...args);
  }
  override append(...args: Parameters<InMemoryTaskStore['append']>): Promise<TaskEventRecord> {
    if (args[2].kind === 'history') this.clientWrites++;
    return super.append(...args);
  }
  override savePushConfig(config: TaskPushNotificationConfig): Promise<void> {
    this.clientWrites++;
    return super.savePushConfig(config);
  }
  override deletePushConfig(taskId: string, id: string): Promise<void> {
    this.clientWrites++;
    return super.deletePushConfig(taskId, id);
  }
  override subscribe(taskId: string, afterSeq: number, signal?: AbortSignal): AsyncIterable<TaskEventRecord> {
    const inner = super.subscribe(taskId, afterSeq, signal);
    const { open, failing } = this;
    return {
      [Symbol.asyncIterator]() {
        const it = inner[Symbol.asyncIterator]();
        open.set(taskId, (open.get(taskId) ?? 0) + 1);
        let closed = false;
        const close = () => {
          if (!closed) open.set(taskId, (open.get(taskId) ?? 1) - 1);
          closed = true;
        };
        return {
          async next() {
            const r = await it.next();
            if (r.done) close();
            else if (failing.has(taskId)) throw new Error('fixture: the event subscription failed');
            return r;
          },
          async return(value?: unknown) {
            close();
            return (await it.return?.(value)) ?? { value: undefined, done: true };
          },
        };
      },
    };
  }
}

/**
 * Stores to serve the fixture from instead of its counting in-memory store (a durable store under test): writes are
 * still counted, but the in-memory store's live-subscription counts and injected stream failures are not available,
 * so only the adversarial suite runs on them.
 */
export interface FixtureStores {
  taskStore: TaskStore & Partial<PushConfigStore>;
  /** When push configs live apart from the tasks. */
  pushConfigStore?: PushConfigStore;
  /** The store's execution coordinator, where it has one. */
  coordinator?: ExecutionCoordinator;
}

/**
 * The suite's agent. The first word of the message picks the behaviour:
 * `reply X` (a message, no task) · `ask` (INPUT_REQUIRED, then completes on the follow-up) · `gated G` (working,
 * waits for gate `G`, artifact, waits for `G-2`, completes) · `boom` (throws before any event) · `midboom G`
 * (working, waits for `G`, then the stream's subscription fails) · `forever` (working until canceled) · anything else (working, artifact, completed).
 */
export function createFixture(
  card: AgentCardInput = FIXTURE_CARD,
  { stores, ...options }: { basePath?: string; stores?: FixtureStores } = {},
) {
  const gates = new Map<string, Deferred>();
  const gate = (name: string): Deferred => {
    const d = gates.get(name) ?? deferred();
    gates.set(name, d);
    return d;
  };
  const canceled = new Set<string>();
  const store = new CountingStore();
  const executor: AgentExecutor = {
    async execute(ctx) {
      const text = ctx.message.parts[0]?.text ?? '';
      const [word, arg = ''] = text.split(' ');
      switch (word) {
        case 'reply':
          return ctx.reply(`you said ${text.slice(6)}`);
        case 'ask':
          if (ctx.task) return ctx.complete(`thanks, ${text}`);
          return ctx.inputRequired('what is your name?');
        case 'boom':
          throw new Error('fixture failure before the first event');
        case 'midboom':
          await ctx.working('about to fail');
          await gate(arg).promise;
          store.failing.add(ctx.taskId);
          await ctx.working('the stream breaks on this one');
          return ctx.complete('done anyway');
        case 'gated':
          await ctx.working('step 1');
          await gate(arg).promise;
          await ctx.artifact({ artifactId: 'out', text: 'chunk 1' });
          await gate(`${arg}-2`).promise;
          return ctx.complete('done');
        case 'forever':
          ctx.signal.addEventListener('abort', () => canceled.add(ctx.taskId));
          await ctx.working('running until canceled');
          return new Promise<void>((resolve) => ctx.signal.addEventListener('abort', () => resolve()));
        default:
          await ctx.working('working on it');
          await ctx.artifact({ name: 'echo', text });
          return ctx.complete(`echo: ${text}`);
      }
    },
  };
  let durableWrites = 0;
  const count = () => {
    durableWrites++;
  };
  const durable = stores && {
    taskStore: countClientWrites(stores.taskStore, count),
    ...(stores.pushConfigStore && { pushConfigStore: countClientWrites(stores.pushConfigStore, count) }),
    ...(stores.coordinator && { coordinator: stores.coordinator }),
  };
  const a2a: A2AHttpHandler = createA2AHandler({
    agentCard: card,
    executor,
    ...(durable ?? { taskStore: store }),
    maxBodyBytes: FIXTURE_MAX_BODY,
    keepAliveMs: FIXTURE_KEEPALIVE_MS,
    onError: () => {},
    onWarning: () => {}, // it advertises push (configs are stored, never delivered) on purpose
    ...options,
  });
  return {
    a2a,
    release: (name: string) => gate(name).resolve(),
    /** Live store subscriptions of a task (a stream being served holds one). */
    openSubscriptions: (taskId: string) => store.open.get(taskId) ?? 0,
    /** How many client writes the store took (see CountingStore.clientWrites). */
    clientWrites: () => (stores ? durableWrites : store.clientWrites),
    canceled,
  };
}
export type Fixture = ReturnType<typeof createFixture>;
