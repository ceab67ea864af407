import {
  type A2AHandlerOptions,
  type A2AHttpHandler,
  type A2AUser,
  type AgentCard,
  type AgentCardInput,
  type AgentExecutor,
  type CloseOptions,
  createA2AHandler,
  createPushSender,
  type HandleOptions,
  type HandlerMount,
  InMemoryTaskStore,
  type MountableHandler,
  type PushConfigStore,
  type TaskStore,
} from '@a2a/core';

/** What the look-alike `DefaultRequestHandler`s turn their positional arguments into. */
export interface CompatHandlerParts {
  card: AgentCardInput;
  /** The task store the app passed: ours as is; the SDK's in-memory one is replaced by ours. */
  taskStore: unknown;
  executor: (taskStore: TaskStore) => AgentExecutor;
  pushConfigStore?: PushConfigStore | undefined;
  /** The app passed a push sender: push is delivered (by ours, with its SSRF guard and retries). */
  pushSender: boolean;
  extendedCard?: ((user: A2AUser) => Promise<AgentCardInput>) | undefined;
  /** Extra `createA2AHandler` options (the last argument of the look-alikes). */
  options?: Partial<A2AHandlerOptions> | undefined;
}

/**
 * The SDK's `DefaultRequestHandler`, as one of our mountable handlers: hand it to any adapter (`a2aFastify(handler)`,
 * `app.use(a2aExpress(handler))`, `a2aHono(handler)` …) or to the Express look-alikes, or call `fetch` from a Fetch host.
 * `a2a` is the handler itself (`createA2AHandler`'s result).
 */
export class CompatRequestHandler implements MountableHandler {
  readonly a2a: A2AHttpHandler;

  constructor(parts: CompatHandlerParts) {
    const taskStore = ourTaskStore(parts.taskStore);
    this.a2a = createA2AHandler({
      agentCard: parts.card,
      executor: parts.executor(taskStore),
      taskStore,
      ...(parts.pushConfigStore ? { pushConfigStore: parts.pushConfigStore } : {}),
      ...(parts.pushSender || parts.card.capabilities?.pushNotifications
        ? { pushNotifications: createPushSender() }
        : {}),
      ...(parts.extendedCard ? { extendedAgentCard: parts.extendedCard } : {}),
      ...parts.options,
    } as A2AHandlerOptions);
  }

  get mount(): HandlerMount {
    return this.a2a.mount;
  }

  handle(request: Request, options?: HandleOptions): Promise<Response | undefined> {
    return this.a2a.handle(request, options);
  }

  fetch(request: Request, options?: HandleOptions): Promise<Response> {
    return this.a2a.fetch(request, options);
  }

  /** The public card as declared (its interface URLs as the app wrote them). */
  publicCard(): AgentCard {
    return this.a2a.publishCard(this.a2a.requestHandler.agentCard);
  }

  close(options?: CloseOptions): Promise<void> {
    return this.a2a.close(options);
  }
}

/**
 * Ours when it is ours; the SDK's `InMemoryTaskStore` becomes ours (bounded, versioned, with the event log that
 * streams and resubscribe read). Any other SDK store is refused: `save(task)`/`load(id)` cannot tell a lost race
 * from a write, nor replay events, so no wrapper could keep the engine's guarantees.
 */
function ourTaskStore(store: unknown): TaskStore {
  if (store === undefined || store === null) return new InMemoryTaskStore();
  const candidate = store as Partial<TaskStore> & { save?: unknown; constructor?: { name?: string } };
  if (typeof candidate.append === 'function' && typeof candidate.subscribe === 'function') return store as TaskStore;
  if (candidate.constructor?.name === 'InMemoryTaskStore') return new InMemoryTaskStore();
  throw new TypeError(
    `@a2a/sdk-compat: an @a2a-js/sdk TaskStore (${candidate.constructor?.name ?? 'unknown'}) cannot be used: it has no versioned writes or event log. ` +
      "Pass InMemoryTaskStore from '@a2a/core' (or '@a2a/sdk-compat'), or PostgresTaskStore from '@a2a/postgres'.",
  );
}
