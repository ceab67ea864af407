// Long on purpose: the blocking and streaming operations' synchronous fronts (docs/performance.md, "Per request") sit
// beside the async paths they short-cut, so the two are read and changed together.
import { A2AError, invalidParams, taskNotFound } from '../errors.js';
import { newId } from '../ids.js';
import { merge } from '../merge.js';
import type { PushNotificationHook } from '../push/push-hook.js';
import type { AgentCard } from '../schemas/agent-card.js';
import type { Message, Part } from '../schemas/message.js';
import { publicPushConfig } from '../schemas/plain.js';
import type { TaskPushNotificationConfig, TaskPushNotificationConfigInput } from '../schemas/push-config.js';
import type {
  CancelTaskRequest,
  GetTaskPushNotificationConfigRequest,
  GetTaskRequest,
  ListTaskPushNotificationConfigsRequest,
  ListTasksRequest,
  SendMessageRequest,
  SubscribeToTaskRequest,
} from '../schemas/requests.js';
import type { SendMessageResponse, StreamResponse, Task, TaskStatus } from '../schemas/task.js';
import { InMemoryTaskStore } from '../store/in-memory-task-store.js';
import { noPushConfigs } from '../store/no-push-configs.js';
import { toStreamResponse, withSeq } from '../store/stream-response.js';
import {
  InvalidPageTokenError,
  type PushConfigStore,
  type StoredTask,
  type TaskEventRecord,
  type TaskStore,
} from '../store/task-store.js';
import { isTerminal, viewTask } from '../task-state.js';
import { A2ALog } from '../telemetry/logger.js';
import { loadOpenTelemetry } from '../telemetry/otel-api.js';
import { countFinished } from '../telemetry/task-metrics.js';
import { type AgentCardInput, normalizeCard } from './agent-card-input.js';
import type { AgentExecutor, CallContext } from './agent-executor.js';
import { answerLater, BlockingAnswer } from './blocking-answer.js';
import { ownerOf } from './call-context.js';
import { CallStream } from './call-stream.js';
import { type CancelStatus, Execution, type ExecutionServices, type ExecutionTarget } from './execution.js';
import { type ExecutionCoordinator, localExecutionCoordinator } from './execution-coordinator.js';
import { ExecutionRegistry } from './execution-registry.js';
import { inputModeChecker } from './input-modes.js';
import type { CloseOptions, RequestHandlerOptions } from './request-handler-options.js';
import { checkExecutor, setupWarnings } from './setup-checks.js';
import { statusClock } from './status-clock.js';
import { DEFAULT_STORE_RETRY_MS, retryOnConflict } from './store-retry.js';
import { LazySubscription, type Subscription, TaskSubscription } from './task-subscription.js';

const DEFAULT_PAGE_SIZE = 50;
/** A client's cancel that keeps losing races to the agent's writes gives up with TaskNotCancelable after this many. */
const CANCEL_ATTEMPTS = 50;
/** A client's message that keeps losing races (practically never: each loss means another writer progressed). */
const MESSAGE_ATTEMPTS = 200;
const SHUTDOWN_TIMEOUT_MS = 25_000;

export { ownerOf };

/**
 * Every A2A operation, transport-free. Inputs are already validated requests; outputs are v1.0 objects.
 * Errors are {@link A2AError}s.
 */
export class A2ARequestHandler {
  readonly agentCard: AgentCard;
  readonly store: TaskStore;
  readonly pushStore: PushConfigStore;
  readonly pushNotifications: PushNotificationHook | undefined;
  /** The engine's log (`logger`, or the `onError`/`onWarning` hooks). */
  readonly log: A2ALog;
  private readonly validatePushUrl: ((url: string) => void | Promise<void>) | undefined;
  private readonly executor: AgentExecutor;
  private readonly coordinator: ExecutionCoordinator;
  private readonly now: () => string;
  private readonly checkInputModes: (parts: readonly Part[]) => void;
  private readonly storeRetryMs: number;
  /** The card's extension URIs (what an executor may activate). */
  private readonly declaredExtensions: ReadonlySet<string>;
  /** Running executions and open client streams. */
  private readonly running: ExecutionRegistry;
  /** What every execution of this handler shares (one object, not one per request). */
  private readonly services: ExecutionServices;

  constructor(private readonly options: RequestHandlerOptions) {
    if (!options?.agentCard) throw new TypeError('A2ARequestHandler needs an agentCard and an executor');
    checkExecutor(options.executor);
    void loadOpenTelemetry(); // optional: traces and metrics once an OpenTelemetry SDK is registered
    this.log = new A2ALog(options.logger, options.onError, options.onWarning);
    this.agentCard = normalizeCard(options.agentCard);
    this.executor = options.executor;
    this.declaredExtensions = new Set((this.agentCard.capabilities.extensions ?? []).map((e) => e.uri));
    this.checkInputModes = options.acceptAnyInputMode ? () => {} : inputModeChecker(this.agentCard);
    for (const w of setupWarnings(options.agentCard, this.agentCard, !!options.pushNotifications)) this.log.warn(w);
    const store = options.taskStore ?? new InMemoryTaskStore();
    this.store = store;
    // Without push in the card, push operations are refused before any store: a plain TaskStore is enough.
    const pushStore =
      options.pushConfigStore ??
      (isPushConfigStore(store) ? store : this.agentCard.capabilities.pushNotifications ? undefined : noPushConfigs);
    if (!pushStore) {
      throw new Error(
        'A pushConfigStore is required when the card declares capabilities.pushNotifications and the task store does not store push configs',
      );
    }
    this.pushStore = options.pushNotifications?.attach({ store, pushStore, log: this.log }) ?? pushStore;
    this.pushNotifications = options.pushNotifications;
    this.validatePushUrl =
      options.validatePushUrl ?? options.pushNotifications?.validatePushUrl?.bind(options.pushNotifications);
    this.coordinator = options.coordinator ?? localExecutionCoordinator;
    this.storeRetryMs = options.storeRetryMs ?? DEFAULT_STORE_RETRY_MS;
    this.now = statusClock(options.now);
    this.services = {
      executor: this.executor,
      store: this.store,
      pushStore: this.pushStore,
      declaredExtensions: this.declaredExtensions,
      now: this.now,
      log: this.log,
      storeRetryMs: this.storeRetryMs,
    };
    this.running = new ExecutionRegistry({
      store,
      executor: this.executor,
      coordinator: this.coordinator,
      log: this.log,
      now: this.now,
      storeRetryMs: this.storeRetryMs,
    });
  }

  get capabilities(): AgentCard['capabilities'] {
    return this.agentCard.capabilities;
  }

  /**
   * Not an async function: a new task's answer is settled by the execution when its turn ends ({@link BlockingAnswer}),
   * read synchronously from an in-memory store (an async frame and its promises per SendMessage less,
   * docs/performance.md "Hot-path tricks"); the other paths go on in {@link sendMessageLater}.
   */
  sendMessage(request: SendMessageRequest, call: CallContext): Promise<SendMessageResponse> {
    let execution: Execution | Promise<Execution>;
    try {
      execution = this.start(request, call, undefined);
    } catch (error) {
      return Promise.reject(error);
    }
    if (execution instanceof Promise) return this.sendMessageLater(execution, request, call);
    // An agent that published in `execute()`'s synchronous part (the first step runs at once): its outcome is known
    // now, and the answer is one `then` on the turn's end instead of a second one adopting it (issue 39).
    const known = execution.firstNow;
    if (known)
      return 'message' in known
        ? Promise.resolve({ message: known.message })
        : this.turnAnswer(execution, request, call);
    return execution.first.then((first) =>
      'message' in first ? { message: first.message } : this.turnAnswer(execution, request, call),
    );
  }

  /** A blocking SendMessage's task once its turn is over. */
  private turnAnswer(
    execution: Execution,
    request: SendMessageRequest,
    call: CallContext,
  ): Promise<SendMessageResponse> {
    const waiter = new BlockingAnswer(this.store, request, call);
    execution.whenTurnEnds(waiter);
    return waiter.answer;
  }

  /** {@link sendMessage} for a message to an existing task, with a push config or `returnImmediately`. */
  private async sendMessageLater(
    started: Promise<Execution>,
    request: SendMessageRequest,
    call: CallContext,
  ): Promise<SendMessageResponse> {
    const execution = await started;
    const first = await execution.first;
    if ('message' in first) return { message: first.message };
    const historyLength = request.configuration?.historyLength;
    if (request.configuration?.returnImmediately) return { task: viewTask(first.stored.task, { historyLength }) };
    const end = await execution.turnEnded;
    const stored = end === 'paused' ? this.store.peek?.(execution.taskId, execution.storedVersion) : undefined;
    if (stored) return { task: viewTask(stored.task, { historyLength }) };
    return answerLater(this.store, execution, end, request, call);
  }

  sendStreamingMessage(request: SendMessageRequest, call: CallContext): AsyncGenerator<StreamResponse> {
    return new CallStream(async () => {
      this.requireStreaming();
      const subscription = new LazySubscription();
      const started = this.start(request, call, subscription);
      const execution = started instanceof Promise ? await started : started;
      this.running.follow(subscription);
      try {
        const first = await execution.first;
        if ('message' in first) return { subscription, first: [{ message: first.message }], finished: true };
        const { task, version } = first.stored;
        const snapshot = withSeq(
          { task: viewTask(task, { historyLength: request.configuration?.historyLength }) },
          version,
        );
        return { subscription, first: [snapshot], finished: isTerminal(task.status.state) };
      } catch (error) {
        this.running.unfollow(subscription);
        subscription.close();
        throw error;
      }
    }, this.running.unfollow);
  }

  async getTask(request: GetTaskRequest, call: CallContext): Promise<Task> {
    const stored = await this.load(request.id, call);
    return viewTask(stored.task, { historyLength: request.historyLength });
  }

  async listTasks(
    request: ListTasksRequest,
    call: CallContext,
  ): Promise<{ tasks: Task[]; nextPageToken: string; pageSize: number; totalSize: number }> {
    try {
      const page = await this.store.list(ownerOf(call), {
        contextId: request.contextId,
        status: request.status,
        statusTimestampAfter: request.statusTimestampAfter,
        pageSize: request.pageSize ?? DEFAULT_PAGE_SIZE,
        pageToken: request.pageToken || undefined,
        historyLength: request.historyLength,
        includeArtifacts: request.includeArtifacts ?? false,
      });
      return {
        tasks: page.tasks,
        nextPageToken: page.nextPageToken,
        pageSize: page.tasks.length,
        totalSize: page.totalSize,
      };
    } catch (error) {
      if (error instanceof InvalidPageTokenError) {
        throw invalidParams('Invalid params: pageToken: not a token this server issued', [
          { field: 'pageToken', description: 'not a token this server issued' },
        ]);
      }
      throw error;
    }
  }

  async cancelTask(request: CancelTaskRequest, call: CallContext): Promise<Task> {
    let stored = await this.load(request.id, call);
    // Spec: a task in a terminal state, CANCELED included, is not cancelable (the v0.3 kit checks the second cancel).
    if (isTerminal(stored.task.status.state)) throw notCancelable(stored.task);
    const running = this.running.forTask(request.id);
    for (const execution of running) execution.abort('Task canceled', true);
    // The agent's own CANCELED status (from its cancel hook, or from execute() once aborted), if it published one.
    let own: CancelStatus | undefined;
    try {
      // Other instances may run executions of the task too (concurrent continuations): reach them as well.
      await this.coordinator.requestCancel(request.id);
      if (this.executor.cancel) {
        const context = running[0];
        if (context) await this.executor.cancel(context);
      }
    } finally {
      for (const execution of running) {
        const taken = execution.takeCancelStatus(); // (closes every execution's window)
        own ??= taken;
      }
    }
    const metadata =
      own?.metadata && request.metadata ? merge(request.metadata, own.metadata) : (own?.metadata ?? request.metadata);
    // Racing the agent's writes (possibly on another instance, until the abort reaches it): re-read and retry with
    // jittered backoff. CANCELED can only lose to a terminal state, which is answered as not cancelable.
    await retryOnConflict(
      CANCEL_ATTEMPTS,
      async (conflict) => {
        if (conflict) {
          stored = await this.load(request.id, call);
          if (stored.task.status.state === 'TASK_STATE_CANCELED') return;
          if (isTerminal(stored.task.status.state)) throw notCancelable(stored.task);
        }
        await this.store.append(request.id, stored.version, {
          kind: 'status',
          status: canceledStatus(this.now(), own?.message),
          ...(metadata && { metadata }),
        });
        countFinished('TASK_STATE_CANCELED');
      },
      () =>
        new A2AError('TaskNotCancelable', `Task ${request.id} kept changing while being canceled; try again`, {
          metadata: { taskId: request.id },
        }),
    );
    return viewTask((await this.load(request.id, call)).task);
  }

  /**
   * `afterSeq` (a resuming client's `Last-Event-ID`): when the log still holds every event after it, those events are
   * replayed instead of the snapshot, so the client sees no gap and no duplicate, even if the task finished meanwhile.
   */
  subscribeToTask(
    request: SubscribeToTaskRequest,
    call: CallContext,
    afterSeq?: number,
  ): AsyncGenerator<StreamResponse> {
    return new CallStream(async () => {
      this.requireStreaming();
      if (this.running.closing) throw shuttingDown();
      const stored = await this.load(request.id, call);
      const replay = afterSeq === undefined ? undefined : await this.replay(request.id, afterSeq, stored.version);
      if (!replay?.length && isTerminal(stored.task.status.state)) {
        throw new A2AError(
          'UnsupportedOperation',
          `Task ${request.id} is ${stored.task.status.state}; nothing to subscribe to`,
          { metadata: { taskId: request.id } },
        );
      }
      const subscription = this.subscribe(request.id, stored.version, call);
      this.running.follow(subscription);
      return {
        subscription,
        first: replay?.length ? replay : [withSeq({ task: viewTask(stored.task) }, stored.version)],
        finished: isTerminal(stored.task.status.state),
      };
    }, this.running.unfollow);
  }

  async createPushConfig(
    request: TaskPushNotificationConfigInput,
    call: CallContext,
  ): Promise<TaskPushNotificationConfig> {
    this.requirePush();
    const taskId = request.taskId ?? '';
    const stored = await this.load(taskId, call);
    await this.validatePushUrl?.(request.url);
    const config = merge(request, { taskId: stored.task.id, id: request.id || newId() });
    await this.pushStore.savePushConfig(withWireVersion(config, call));
    return config;
  }

  async getPushConfig(
    request: GetTaskPushNotificationConfigRequest,
    call: CallContext,
  ): Promise<TaskPushNotificationConfig> {
    this.requirePush();
    await this.load(request.taskId, call);
    const config = await this.pushStore.getPushConfig(request.taskId, request.id);
    if (!config) {
      throw new A2AError('TaskNotFound', `Push notification config not found: ${request.id}`, {
        metadata: { taskId: request.taskId, configId: request.id },
      });
    }
    return publicPushConfig(config);
  }

  async listPushConfigs(
    request: ListTaskPushNotificationConfigsRequest,
    call: CallContext,
  ): Promise<{ configs: TaskPushNotificationConfig[]; nextPageToken: string }> {
    this.requirePush();
    await this.load(request.taskId, call);
    const configs = await this.pushStore.listPushConfigs(request.taskId);
    return { configs: configs.map(publicPushConfig), nextPageToken: '' };
  }

  async deletePushConfig(request: GetTaskPushNotificationConfigRequest, call: CallContext): Promise<void> {
    this.requirePush();
    await this.load(request.taskId, call);
    await this.pushStore.deletePushConfig(request.taskId, request.id);
  }

  async getExtendedAgentCard(call: CallContext): Promise<AgentCardInput> {
    if (!this.capabilities.extendedAgentCard) {
      throw new A2AError('UnsupportedOperation', 'This agent has no extended agent card');
    }
    const source = this.options.extendedAgentCard;
    if (!source) throw new A2AError('ExtendedAgentCardNotConfigured', 'The extended agent card is not configured');
    if (!call.user) throw new A2AError('Unauthenticated', 'The extended agent card requires authentication');
    return typeof source === 'function' ? source(call.user) : source;
  }

  /**
   * Validates the message against the task, stores what it must, and starts the executor. `follow` (streams): opened on
   * the task's events from where this message enters; a blocking call waits on the execution instead, and makes no
   * subscription (issue 39, docs/performance.md "Per request").
   * A new task without a push config or `returnImmediately` (nearly every message) awaits nothing before its executor
   * starts, so it is started synchronously, without an async frame (~1.7 KB per request; docs/performance.md,
   * "Hot-path tricks").
   */
  private start(
    request: SendMessageRequest,
    call: CallContext,
    follow: LazySubscription | undefined,
  ): Execution | Promise<Execution> {
    const { message, configuration } = request;
    if (this.running.closing) throw shuttingDown();
    this.checkRequiredExtensions(call);
    if (message.role !== 'ROLE_USER')
      throw invalidParams('Invalid params: message.role: must be ROLE_USER', [
        { field: 'message.role', description: 'must be ROLE_USER' },
      ]);
    this.checkInputModes(message.parts);
    if (message.taskId || configuration?.taskPushNotificationConfig || configuration?.returnImmediately) {
      return this.startAfterWrites(request, call, follow);
    }
    const taskId = newId();
    const contextId = message.contextId ?? newId();
    const userMessage = storedUserMessage(message, taskId, contextId);
    // A blocking call (no `follow`) answers from the turn's end, never from `first`'s task: the store may keep it.
    const target = { taskId, contextId, userMessage, firstTaskUnread: follow === undefined };
    return this.run(this.execution(request, call, follow, target));
  }

  /** {@link start} for a message to an existing task, with a push config or `returnImmediately`. */
  private async startAfterWrites(
    request: SendMessageRequest,
    call: CallContext,
    follow: LazySubscription | undefined,
  ): Promise<Execution> {
    const { message, configuration } = request;
    const pushInput = configuration?.taskPushNotificationConfig;
    if (pushInput) {
      this.requirePush();
      await this.validatePushUrl?.(pushInput.url);
    }
    let existing: StoredTask | undefined;
    if (message.taskId) {
      existing = await this.load(message.taskId, call);
      const { task } = existing;
      if (message.contextId && message.contextId !== task.contextId) {
        throw invalidParams(`Invalid params: message.contextId: task ${task.id} belongs to context ${task.contextId}`, [
          { field: 'message.contextId', description: 'does not match the task' },
        ]);
      }
      if (isTerminal(task.status.state)) {
        throw new A2AError(
          'UnsupportedOperation',
          `Task ${task.id} is ${task.status.state} and accepts no more messages`,
          {
            metadata: { taskId: task.id },
          },
        );
      }
    }
    const taskId = existing?.task.id ?? newId();
    const contextId = existing?.task.contextId ?? message.contextId ?? newId();
    const pushConfig = pushInput && withWireVersion(merge(pushInput, { taskId, id: pushInput.id || newId() }), call);
    const userMessage = storedUserMessage(message, taskId, contextId);

    if (existing) {
      const record = await this.appendMessage(taskId, existing.version, userMessage);
      follow?.open(() => this.subscribe(taskId, record.seq, call));
      if (pushConfig) await this.pushStore.savePushConfig(pushConfig);
      existing = {
        task: merge(existing.task, { history: [...(existing.task.history ?? []), userMessage] }),
        version: record.seq,
      };
    }
    const target = { taskId, contextId, userMessage, existing, pushConfig };
    const execution = this.execution(request, call, follow, target);
    if (configuration?.returnImmediately) await execution.submit();
    return this.run(execution);
  }

  private execution(
    request: SendMessageRequest,
    call: CallContext,
    follow: LazySubscription | undefined,
    target: ExecutionTarget,
  ): Execution {
    // Nothing to open for a call that does not follow the task: the execution's shared no-op.
    const onStored = follow
      ? (stored: StoredTask) => follow.open(() => this.subscribe(target.taskId, stored.version, call))
      : undefined;
    return new Execution(this.services, target, request, call, onStored);
  }

  private run(execution: Execution): Execution {
    this.running.start(execution);
    return execution;
  }

  /** The visible events `afterSeq+1 .. version`, or `undefined` when the log no longer holds all of them. */
  private async replay(taskId: string, afterSeq: number, version: number): Promise<StreamResponse[] | undefined> {
    if (afterSeq > version) return undefined;
    const records = (await this.store.readEvents(taskId, afterSeq)).filter((r) => r.seq <= version);
    if (records.length !== version - afterSeq || (records[0] && records[0].seq !== afterSeq + 1)) return undefined;
    const out: StreamResponse[] = [];
    for (const record of records) {
      const response = toStreamResponse(record);
      if (response) out.push(withSeq(response, record.seq));
    }
    return out;
  }

  /** The task's live events until the caller's client goes away. */
  private subscribe(taskId: string, afterSeq: number, call: CallContext): Subscription {
    return new TaskSubscription(this.store, taskId, afterSeq, call);
  }

  /**
   * Appends a client's message to the history. A lost race (the agent or another client wrote first) is retried on
   * the new version with jittered backoff; a task that finished meanwhile answers UnsupportedOperation, as for a
   * message to a finished task.
   */
  private async appendMessage(taskId: string, version: number, message: Message): Promise<TaskEventRecord> {
    const event = { kind: 'history', message } as const;
    return retryOnConflict(
      MESSAGE_ATTEMPTS,
      (conflict) => this.store.append(taskId, conflict?.actualVersion ?? version, event),
      () =>
        new A2AError('Unavailable', `Task ${taskId} is changing too often to take the message; try again`, {
          metadata: { taskId },
        }),
    );
  }

  /** Whether {@link close} was called: new messages and subscriptions are refused. */
  get closing(): boolean {
    return this.running.closing;
  }

  /**
   * Graceful shutdown. New SendMessage, SendStreamingMessage and SubscribeToTask calls are refused at once with
   * `Unavailable` (HTTP 503); open streams end cleanly (no terminal event: clients resubscribe, e.g. on another
   * instance); running executions get `timeoutMs` to finish. Those still running then are aborted, their tasks
   * FAILED ("The agent was shut down before the task finished") and their leases released, so nothing is left for a
   * janitor to wait out. Reads and CancelTask are still served. Idempotent; the store is left open.
   */
  close(options: CloseOptions = {}): Promise<void> {
    return this.running.close(options.timeoutMs ?? SHUTDOWN_TIMEOUT_MS);
  }

  private async load(taskId: string, call: CallContext): Promise<StoredTask> {
    const stored = await this.store.get(taskId, ownerOf(call));
    if (!stored) throw taskNotFound(taskId);
    return stored;
  }

  private requireStreaming(): void {
    if (!this.capabilities.streaming)
      throw new A2AError('UnsupportedOperation', 'Streaming is not supported by this agent');
  }

  private requirePush(): void {
    if (!this.capabilities.pushNotifications) {
      throw new A2AError('PushNotificationNotSupported', 'Push notifications are not supported by this agent');
    }
  }

  private checkRequiredExtensions(call: CallContext): void {
    // (Nothing per request when the card requires none: a Set and an iterator less.)
    if (!this.capabilities.extensions?.some((extension) => extension.required)) return;
    const active = new Set(call.extensions ?? []);
    for (const extension of this.capabilities.extensions ?? []) {
      if (extension.required && !active.has(extension.uri)) {
        throw new A2AError('ExtensionSupportRequired', `This agent requires the extension ${extension.uri}`, {
          metadata: { extension: extension.uri },
        });
      }
    }
  }
}

const shuttingDown = () => new A2AError('Unavailable', 'The server is shutting down; retry on another instance');

/** The cancel's status, with the agent's own message when it published one. */
function canceledStatus(timestamp: string, message: Message | undefined): TaskStatus {
  const status: TaskStatus = { state: 'TASK_STATE_CANCELED', timestamp };
  if (message) status.message = message;
  return status;
}

const notCancelable = (task: Task) =>
  new A2AError('TaskNotCancelable', `Task ${task.id} is ${task.status.state} and cannot be canceled`, {
    metadata: { taskId: task.id },
  });

function isPushConfigStore(store: object): store is PushConfigStore {
  return typeof (store as Partial<PushConfigStore>).savePushConfig === 'function';
}

export function createRequestHandler(options: RequestHandlerOptions): A2ARequestHandler {
  return new A2ARequestHandler(options);
}

/**
 * The client's message with its task and context: the common fields in one object literal (held in the object
 * itself, not in a property array allocated per stored task), then whatever else the message carries.
 */
function storedUserMessage(message: Message, taskId: string, contextId: string): Message {
  const stored: Message = { messageId: message.messageId, role: message.role, parts: message.parts, taskId, contextId };
  for (const key in message) {
    if (!(key in stored)) (stored as Record<string, unknown>)[key] = (message as Record<string, unknown>)[key];
  }
  return stored;
}

/** Remembers a legacy wire version on a config so its notifications keep that version's body shape. */
function withWireVersion(config: TaskPushNotificationConfig, call: CallContext): TaskPushNotificationConfig {
  return call.protocolVersion ? merge(config, { protocolVersion: call.protocolVersion }) : config;
}
