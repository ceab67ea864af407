// Long on purpose: each step's synchronous fast path (docs/performance.md, "Per request") sits beside the async path
// it short-cuts, so the two are read and changed together.
import { A2AError, toA2AError } from '../errors.js';
import { newId } from '../ids.js';
import { jsonEqual } from '../json-equal.js';
import { merge } from '../merge.js';
import type { Message, Part } from '../schemas/message.js';
import type { TaskPushNotificationConfig } from '../schemas/push-config.js';
import type { SendMessageConfiguration } from '../schemas/requests.js';
import type { Artifact, Task, TaskState, TaskStatus } from '../schemas/task.js';
import { appendNow, createOwned, createsOwned } from '../store/in-memory-task-store.js';
import type { PushConfigStore } from '../store/task-store.js';
import {
  ConcurrentModificationError,
  type StoredTask,
  type TaskEventRecord,
  type TaskOwner,
  type TaskStore,
} from '../store/task-store.js';
import { InvalidTransitionError, isInterrupted, isTerminal, newTask, type TaskEvent } from '../task-state.js';
import { type ExecutorSpan, startExecutorSpan } from '../telemetry/executor-span.js';
import type { A2ALog } from '../telemetry/logger.js';
import { countCreated, countFinished } from '../telemetry/task-metrics.js';
import type {
  A2AUser,
  AgentContext,
  AgentExecutor,
  ArtifactChunk,
  CallContext,
  MessageContent,
  StatusOptions,
} from './agent-executor.js';
import { ownerOf, responseHeadersOf } from './call-context.js';
import type { ExecutionLease } from './execution-coordinator.js';
import { echoExtension } from './extension-echo.js';
import { conflictPause, isStoreUnavailable, outagePause } from './store-retry.js';

export type FirstOutcome = { message: Message } | { stored: StoredTask };

/**
 * Why the agent's turn is over: one of its own status events ended it (terminal or interrupted state), `execute()`
 * returned with the task still running, or the execution was aborted (canceled: the cancel's event is written by
 * whoever canceled, possibly another instance).
 */
export type TurnEnd = 'paused' | 'settled' | 'aborted';

/** The agent's own CANCELED status, published while a CancelTask on this instance was under way (see `abort`). */
export interface CancelStatus {
  message: Message | undefined;
  metadata: Record<string, unknown> | undefined;
}

/** What every execution of one request handler shares: made once per handler, not per request. */
export interface ExecutionServices {
  executor: AgentExecutor;
  store: TaskStore;
  pushStore: PushConfigStore;
  /** The extension URIs the card declares (the only ones `activateExtension` lists). */
  declaredExtensions: ReadonlySet<string>;
  now: () => string;
  /** Where the agent's failures and the execution's own errors are reported (with the task id). */
  log: A2ALog;
  /** How long a write the store refuses as unavailable is retried before the execution gives up. */
  storeRetryMs: number;
}

/** The task a message starts an execution for: new (ids only), or `existing`; with the push config it registers. */
export interface ExecutionTarget {
  taskId: string;
  contextId: string;
  /** The incoming message as stored (with the task's ids). */
  userMessage: Message;
  /** Present when continuing an existing task: it is already stored at `version`. */
  existing?: StoredTask | undefined;
  pushConfig?: TaskPushNotificationConfig | undefined;
  /**
   * The caller never reads the new task of {@link Execution.first} (a blocking call answers from the turn's end): the
   * in-memory store may keep the engine's new task itself instead of a copy (issue 39, docs/performance.md "Bytes per
   * SendMessage, twenty-second session").
   */
  firstTaskUnread?: boolean | undefined;
}

/** The request's own fields an execution shows the agent. */
export interface ExecutionRequest {
  metadata?: Record<string, unknown> | undefined;
  configuration?: SendMessageConfiguration | undefined;
}

/** Told once that an execution's turn is over (see {@link Execution.whenTurnEnds}). */
export interface TurnWaiter {
  turnOver(execution: Execution, end: TurnEnd): void;
}

/** Called synchronously when the task exists in the store, before any later event is appended. */
export type OnStored = (stored: StoredTask) => void;

const NOTHING_ON_STORED: OnStored = () => {};

/** One run of the executor for one incoming message; it is the {@link AgentContext} the executor receives. */
export class Execution implements AgentContext {
  readonly taskId: string;
  readonly contextId: string;
  readonly message: Message;
  readonly task: Task | undefined;
  readonly user: A2AUser | undefined;
  readonly tenant: string | undefined;
  readonly extensions: readonly string[];
  readonly metadata: Record<string, unknown> | undefined;
  readonly configuration: SendMessageConfiguration | undefined;
  readonly state: Record<string, unknown> | undefined;
  readonly protocolVersion: string;
  /**
   * Resolves to this execution when `execute()` settled and everything it published is stored (so the registry
   * hands every execution's settling to one shared function). Never rejects: a failure to settle goes to `holder`.
   */
  settled: Promise<Execution> | undefined;

  /**
   * The fields only a rare path sets (a signal read, an abort or cancel, metadata before the task exists, a failed
   * create, `turnEnded`), in one object made by the first of them: eight fields fewer on every execution (issue 39,
   * docs/performance.md "Bytes per SendMessage, twenty-third session").
   */
  private rare: RareFields | undefined;
  private version: number;
  private chain: Promise<unknown> = DONE;
  /** Steps enqueued and not yet settled (0: `chain` is settled). */
  private queued = 0;
  /**
   * The promise {@link appendEvent} last returned already settled (its in-memory write landed synchronously): a step
   * run at once that returns it is done, and is neither counted nor chained (see {@link counted}).
   */
  private landed: Promise<unknown> | undefined;
  /**
   * The first outcome once known (or `firstError`), and the turn's end: plain fields, their promises made only when
   * someone asks before they are known (`first`, `turnEnded`). A blocking SendMessage whose agent publishes in its
   * first synchronous run reads the outcome without a promise (issue 39, docs/performance.md "Per request").
   */
  private firstOutcome: FirstOutcome | undefined;
  private firstPromise: Promise<FirstOutcome> | undefined;
  private settleFirst: { resolve(outcome: FirstOutcome): void; reject(error: unknown): void } | undefined;
  private turnEnd: TurnEnd | undefined;
  private turnWaiter: TurnWaiter | undefined;
  private replied = false;
  /** {@link start} was called: a step may run at once even before the task is stored (see `enqueue`). */
  private started = false;
  private lastWritten: TaskState | undefined;
  /** The executor's span (when tracing), and when this turn began (for the task duration; the registry's order). */
  private span: ExecutorSpan | undefined;
  readonly began = performance.now();
  /** The registry holding it while it runs: it releases the execution (and its lease) when it is aborted. */
  holder: ExecutionHolder | undefined = undefined;
  /** The coordinator's lease, held by the registry (the local coordinator's holds nothing). */
  lease: ExecutionLease = NO_LEASE;
  /** Where the registry holds it while it runs (-1: not held); see `ExecutionRegistry`. */
  trackedAt = -1;

  private readonly owner: TaskOwner;
  private readonly pushConfig: TaskPushNotificationConfig | undefined;
  /** See {@link ExecutionTarget.firstTaskUnread}. */
  private readonly handsOverTask: boolean;
  /**
   * The headers of the response to the request that started this execution, while that response is not built yet:
   * `activateExtension`/`declineExtension` edit its `A2A-Extensions`. Absent when the transport has none to offer.
   */
  private readonly responseHeaders: Record<string, string> | undefined;
  private readonly onStored: OnStored;

  /**
   * The handler's shared services, the task, the request and its call as they are, not an init object of their
   * fields per request (issue 39, docs/performance.md "Per request").
   */
  constructor(
    private readonly services: ExecutionServices,
    target: ExecutionTarget,
    request: ExecutionRequest,
    call: CallContext,
    onStored: OnStored = NOTHING_ON_STORED,
  ) {
    const existing = target.existing;
    this.taskId = target.taskId;
    this.contextId = target.contextId;
    this.message = target.userMessage;
    this.task = existing?.task;
    this.user = call.user;
    this.tenant = call.tenant;
    this.extensions = call.extensions ?? [];
    this.metadata = request.metadata;
    this.configuration = request.configuration;
    this.state = call.state;
    this.protocolVersion = call.protocolVersion ?? '1.0';
    this.version = existing?.version ?? 0;
    this.owner = ownerOf(call);
    this.pushConfig = target.pushConfig;
    this.handsOverTask = target.firstTaskUnread === true;
    this.responseHeaders = responseHeadersOf(call);
    this.onStored = onStored;
    if (existing) this.firstOutcome = { stored: existing };
  }

  /** The agent's first outcome: its message, or the task stored. Rejects when the task could not be stored. */
  get first(): Promise<FirstOutcome> {
    if (this.firstPromise) return this.firstPromise;
    const { firstOutcome } = this;
    const firstError = this.rare?.firstError;
    let promise: Promise<FirstOutcome>;
    if (firstOutcome) promise = Promise.resolve(firstOutcome);
    else if (firstError) promise = Promise.reject(firstError.error);
    else promise = new Promise((resolve, reject) => (this.settleFirst = { resolve, reject }));
    promise.catch(() => {}); // awaiting it still throws
    this.firstPromise = promise;
    return promise;
  }

  /** {@link first}'s outcome when it is already known (`undefined` while pending or when it failed). */
  get firstNow(): FirstOutcome | undefined {
    return this.firstOutcome;
  }

  /**
   * Resolves when the agent's turn is over. A blocking SendMessage waits on this rather than on a store subscription:
   * every event of the turn is written by this execution, so the store's fan-out is not needed to learn of it.
   */
  get turnEnded(): Promise<TurnEnd> {
    const rare = this.rareFields();
    rare.turnPromise ??= this.turnEnd
      ? Promise.resolve(this.turnEnd)
      : new Promise((resolve) => {
          rare.resolveTurn = resolve;
        });
    return rare.turnPromise;
  }

  /**
   * {@link turnEnded} without its promise and a `then` on it: `waiter.turnOver` is called once the turn is over (at
   * once when it is), synchronously with the write that ended it. A blocking SendMessage's answer is then the call's
   * one promise (issue 39, docs/performance.md "Bytes per SendMessage, twenty-second session"). One waiter at most
   * (the call that started the execution); it must not throw.
   */
  whenTurnEnds(waiter: TurnWaiter): void {
    if (this.turnEnd) waiter.turnOver(this, this.turnEnd);
    else this.turnWaiter = waiter;
  }

  /** The first outcome (the first call wins, as a promise's resolve). */
  private resolveFirst(outcome: FirstOutcome): void {
    if (this.firstOutcome || this.rare?.firstError) return;
    this.firstOutcome = outcome;
    this.settleFirst?.resolve(outcome);
  }

  private rejectFirst(error: unknown): void {
    if (this.firstOutcome || this.rare?.firstError) return;
    this.rareFields().firstError = { error };
    this.settleFirst?.reject(error);
  }

  /** The turn's end (the first call wins). */
  private endTurn(end: TurnEnd): void {
    if (this.turnEnd) return;
    this.turnEnd = end;
    this.rare?.resolveTurn?.(end);
    this.turnWaiter?.turnOver(this, end);
  }

  get signal(): AbortSignal {
    const rare = this.rareFields();
    if (!rare.controller) {
      rare.controller = new AbortController();
      if (rare.abortReason) rare.controller.abort(rare.abortReason);
    }
    return rare.controller.signal;
  }

  /** {@link rare}, made on first use. */
  private rareFields(): RareFields {
    this.rare ??= new RareFields();
    return this.rare;
  }

  /** Aborted (canceled, or finished elsewhere): the executor's later publications are ignored. */
  private get aborted(): boolean {
    return this.rare?.abortReason !== undefined;
  }

  /** Between a local CancelTask's abort and its CANCELED write (see {@link abort}). */
  private get canceling(): boolean {
    return this.rare?.canceling === true;
  }

  get stored(): boolean {
    return this.version > 0;
  }

  /** The task's state after this execution's last write (`undefined` before the first). */
  get lastState(): TaskState | undefined {
    return this.lastWritten;
  }

  /** The task version after this execution's last write. */
  get storedVersion(): number {
    return this.version;
  }

  /** Starts `execute()`; an exception fails the task. Called by the registry once it tracks the execution. */
  start(): void {
    this.started = true;
    // Traced: `execute()` runs with its own span active, so the agent's spans (LLM calls, HTTP) nest under it.
    this.span = startExecutorSpan(this);
    this.settled = this.span ? this.span.run(() => this.run()) : this.run();
  }

  /**
   * `execute()` and then the turn's end. Not an async function: the common path is one `then` on the executor's
   * promise and ends the turn at once when nothing is queued (an async frame per SendMessage less, docs/performance.md
   * "Hot-path tricks"); a failure, or a turn that published nothing, goes on in an async function.
   */
  private run(): Promise<Execution> {
    let executing: unknown;
    try {
      executing = this.services.executor.execute(this);
    } catch (error) {
      return this.runFailed(error);
    }
    return Promise.resolve(executing).then(
      () => this.finish(),
      (error: unknown) => this.runFailed(error),
    );
  }

  private async runFailed(error: unknown): Promise<Execution> {
    if (!this.aborted) {
      try {
        this.span?.fail(error);
        this.reportError(error);
      } catch (failure) {
        // The report itself threw (an `onError` hook): the holder reports that and lets go, as for a rejected run.
        this.holder?.failed(this, failure);
        return this;
      }
      await this.enqueue(() => this.applyStatus('TASK_STATE_FAILED', `Agent failed: ${failureReason(error)}`)).catch(
        () => {},
      );
    }
    return this.finishLater();
  }

  /** After `execute()` returned: the turn ends now when everything it published is stored. */
  private finish(): Promise<Execution> | Execution {
    if (this.queued > 0 || (!this.replied && !this.stored)) return this.finishLater();
    this.endTurn('settled');
    return this;
  }

  private async finishLater(): Promise<Execution> {
    // Nothing published at all: the task still exists, so the client gets an answer. (Once stored it stays stored: no
    // step queued then, three promises less per execution. docs/performance.md, "Hot-path tricks".)
    if (!this.replied && !this.stored) await this.enqueue(() => this.ensureStored()).catch(() => {});
    await this.chain.catch(() => {});
    this.endTurn('settled');
    return this;
  }

  private reportError(error: unknown): void {
    this.services.log.error(error, { taskId: this.taskId });
  }

  /**
   * Cancellation: abort the signal; the executor's later publications are ignored. `canceling`: a CancelTask of this
   * instance will write CANCELED; until it takes it ({@link takeCancelStatus}), the agent's own CANCELED status is kept
   * for that write instead of ignored.
   */
  abort(reason: string, canceling = false): void {
    const rare = this.rareFields();
    if (canceling) rare.canceling = true;
    if (rare.abortReason) return;
    rare.abortReason = new A2AError('TaskNotCancelable', reason);
    rare.controller?.abort(rare.abortReason);
    this.endTurn('aborted');
    this.holder?.release(this);
  }

  /** The CANCELED status the agent published since a canceling abort, if any; later ones are ignored. */
  takeCancelStatus(): CancelStatus | undefined {
    const rare = this.rare;
    if (!rare) return undefined;
    rare.canceling = false;
    const status = rare.cancelStatus;
    rare.cancelStatus = undefined;
    return status;
  }

  reply(content: MessageContent): Promise<void> {
    return this.enqueue(async () => {
      if (this.stored || this.replied) return this.applyStatus('TASK_STATE_COMPLETED', content);
      this.replied = true;
      this.resolveFirst({ message: this.agentMessage(content, false) });
    });
  }

  submit(): Promise<void> {
    return this.enqueue(() => (this.storedNow() ? DONE : this.ensureStored()));
  }
  working(content?: MessageContent, options?: StatusOptions): Promise<void> {
    return this.status('TASK_STATE_WORKING', content, options);
  }
  inputRequired(content: MessageContent, options?: StatusOptions): Promise<void> {
    return this.status('TASK_STATE_INPUT_REQUIRED', content, options);
  }
  authRequired(content: MessageContent, options?: StatusOptions): Promise<void> {
    return this.status('TASK_STATE_AUTH_REQUIRED', content, options);
  }
  complete(content?: MessageContent, options?: StatusOptions): Promise<void> {
    return this.status('TASK_STATE_COMPLETED', content, options);
  }
  fail(content: MessageContent, options?: StatusOptions): Promise<void> {
    return this.status('TASK_STATE_FAILED', content, options);
  }
  reject(content: MessageContent, options?: StatusOptions): Promise<void> {
    return this.status('TASK_STATE_REJECTED', content, options);
  }
  status(state: TaskState, content?: MessageContent, options?: StatusOptions): Promise<void> {
    if (this.canceling && state === 'TASK_STATE_CANCELED') {
      // Kept at once, not queued: the cancel writes right after its hook returns, and the hook may not await this.
      const message = content === undefined ? undefined : this.agentMessage(content);
      this.rareFields().cancelStatus = { message, metadata: options?.metadata };
      return Promise.resolve();
    }
    if (!this.runsNow()) return this.enqueue(() => this.applyStatus(state, content, options?.metadata));
    // Run now without a step closure and its context per event (issue 39, docs/performance.md "Per request").
    let result: Promise<void>;
    try {
      result = this.applyStatus(state, content, options?.metadata);
    } catch (error) {
      result = Promise.reject(error);
    }
    return this.counted(result);
  }

  /** The status step: once stored, a plain append without an async frame (docs/performance.md, "Hot-path tricks"). */
  private applyStatus(
    state: TaskState,
    content: MessageContent | undefined,
    metadata?: Record<string, unknown>,
  ): Promise<void> {
    if (!this.storedNow()) return this.firstStatus(state, content, metadata);
    return this.appendEvent(this.statusEvent(state, content, metadata), undefined);
  }

  private statusEvent(
    state: TaskState,
    content: MessageContent | undefined,
    metadata?: Record<string, unknown>,
  ): TaskEvent {
    const status: TaskStatus = { state, timestamp: this.services.now() };
    if (content !== undefined) status.message = this.agentMessage(content);
    return metadata === undefined ? { kind: 'status', status } : { kind: 'status', status, metadata };
  }

  setMetadata(metadata: Record<string, unknown>): Promise<void> {
    return this.enqueue(async () => {
      if (this.stored) {
        await this.appendEvent({ kind: 'metadata', metadata });
        return;
      }
      // Not stored yet: carried on the creation, so the task's first snapshot (a stream's first event) shows it.
      const rare = this.rareFields();
      rare.createdMetadata = { ...rare.createdMetadata, ...metadata };
      await this.ensureStored();
    });
  }

  activateExtension(uri: string): void {
    const headers = this.responseHeaders;
    if (headers && this.services.declaredExtensions.has(uri)) echoExtension(headers, uri, true);
  }

  declineExtension(uri: string): void {
    const headers = this.responseHeaders;
    if (headers) echoExtension(headers, uri, false);
  }

  artifact(chunk: ArtifactChunk): Promise<string> {
    const artifactId = chunk.artifactId ?? newId();
    const event = artifactEvent(chunk, artifactId);
    if (!event) return Promise.reject(new A2AError('InvalidAgentResponse', 'An artifact needs parts'));
    // Once stored, a plain append: no async frame per event (docs/performance.md, "Hot-path tricks").
    if (!this.runsNow()) return this.enqueue(() => this.artifactStep(event, artifactId));
    // Run now without a step closure and its context per event (issue 39, docs/performance.md "Per request").
    let result: Promise<string>;
    try {
      result = this.artifactStep(event, artifactId);
    } catch (error) {
      result = Promise.reject(error);
    }
    return this.counted(result);
  }

  private artifactStep(event: TaskEvent, artifactId: string): Promise<string> {
    return this.storedNow() ? this.appendEvent(event, artifactId) : this.firstArtifact(event, artifactId);
  }

  /** An artifact before the task is stored: created with it when the store can, else created first. */
  private async firstArtifact(event: TaskEvent, artifactId: string): Promise<string> {
    if (!this.stored && this.canCreateWith() && (await this.storedWith(() => event))) return artifactId;
    if (!this.stored) await this.ensureStored();
    await this.appendEvent(event);
    return artifactId;
  }

  /**
   * {@link submit}, {@link status} and {@link artifact} for a caller that publishes without awaiting (@a2a/sdk-compat's
   * SDK executors): when the step would run at once and its write lands synchronously (the in-memory store), it is
   * done here and `undefined` is returned — no promise, no count, no derived promise; otherwise the helper's own
   * promise. Not on `AgentContext`: an agent awaits its helpers. docs/performance.md, "SDK executors…", tenth round.
   */
  submitNow(): Promise<void> | undefined {
    if (!this.runsNow()) return this.submit();
    try {
      if (this.storedNow()) return undefined;
    } catch (error) {
      return this.counted(Promise.reject(error));
    }
    return this.submit();
  }

  /** See {@link submitNow}. */
  statusNow(state: TaskState, content?: MessageContent, options?: StatusOptions): Promise<void> | undefined {
    if (this.canceling || !this.runsNow()) return this.status(state, content, options);
    try {
      if (!this.storedNow()) return this.status(state, content, options);
    } catch (error) {
      return this.counted(Promise.reject(error));
    }
    return this.landNow(this.statusEvent(state, content, options?.metadata), undefined);
  }

  /** See {@link submitNow}. */
  artifactNow(chunk: ArtifactChunk): Promise<string> | undefined {
    if (!this.runsNow()) return this.artifact(chunk);
    try {
      if (!this.storedNow()) return this.artifact(chunk);
    } catch (error) {
      return this.counted(Promise.reject(error));
    }
    const artifactId = chunk.artifactId ?? newId();
    const event = artifactEvent(chunk, artifactId);
    if (!event) return this.artifact(chunk);
    return this.landNow(event, artifactId);
  }

  /** The stored task's append made now: `undefined` when it landed synchronously, else {@link appendEvent}'s promise. */
  private landNow<T>(event: TaskEvent, value: T): Promise<T> | undefined {
    let now: TaskEventRecord | undefined;
    try {
      now = appendNow(this.services.store, this.taskId, this.version, event);
    } catch (error) {
      return this.counted(this.appendRetrying(event, error, value) as Promise<T>);
    }
    if (!now) return this.counted(this.appendEvent(event, value));
    this.appended(event, now);
    return undefined;
  }

  agentMessage(content: MessageContent, withTask = true): Message {
    const base =
      typeof content === 'string'
        ? { parts: [{ text: content }] }
        : Array.isArray(content)
          ? { parts: content }
          : content;
    const fields = { messageId: base.messageId ?? newId(), role: 'ROLE_AGENT', contextId: this.contextId };
    return merge(base, withTask ? { ...fields, taskId: this.taskId } : fields) as Message;
  }

  /** Applies calls in call order. The returned promise is marked handled, so an executor that does not await it
   * cannot crash the process with an unhandled rejection; awaiting it still throws. */
  private enqueue<T>(step: () => Promise<T>): Promise<T> {
    let result: Promise<T>;
    if (this.runsNow()) {
      // Nothing queued and the task stored: the step runs now rather than a microtask later behind a settled chain
      // (three promises and two hops less per event; later calls still queue behind it, so the order is the same).
      // Before the task is stored only once started (the registry tracks an execution before it starts it, so the
      // task's creation stays after that): a turn's first step then runs inside `execute()`'s synchronous part and a
      // blocking SendMessage finds its outcome without a promise. docs/performance.md, "Hot-path tricks".
      try {
        result = step();
      } catch (error) {
        result = Promise.reject(error);
      }
    } else result = this.chain.then(() => (this.aborted ? (undefined as T) : step()));
    return this.counted(result);
  }

  /** Whether a step runs at once rather than behind the chain (see {@link enqueue}). */
  private runsNow(): boolean {
    return this.queued === 0 && (this.stored || this.started) && !this.aborted;
  }

  /**
   * Counts a step begun (at once or queued) until it settles; `status` and `artifact` call it with no closure. A step
   * run at once whose write landed synchronously (it returned {@link landed}) is over already: no derived promise and
   * no reaction (issue 39, docs/performance.md "Per request"). A later call then runs at once too, where it used to
   * wait a microtask for this one's count to drop: the same order.
   */
  private counted<T>(result: Promise<T>): Promise<T> {
    if (result === this.landed) {
      this.landed = undefined;
      return result;
    }
    this.queued++;
    // One derived promise both keeps the chain going past a failure and reports it (and marks `result` handled).
    this.chain = result.then(this.stepDone, this.stepFailed);
    return result;
  }

  // Made with the execution, not at its first counted step, although a turn whose every step lands at once never uses
  // them: made lazily (from the step, from a method, with or without a placeholder) they cost each 10-event stream
  // ~10 µs of scavenges on the bench's server, where V8's allocation-site pretenuring then tenures the request's
  // objects (docs/performance.md, "Ninth round (twenty-first session)").
  private readonly stepDone = (): void => {
    this.queued--;
  };

  private readonly stepFailed = (error: unknown): void => {
    this.queued--;
    if (!this.aborted) this.reportError(error);
  };

  /**
   * After giving up: records FAILED with the reason as soon as the store answers again, so the task says why it
   * ended (one read every two seconds or so meanwhile; the timer does not hold the process). If this process ends
   * first, the lease janitor of another instance fails the task instead.
   */
  private async failWhenBack(reason: string): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      await outagePause(attempt);
      try {
        const stored = await this.services.store.get(this.taskId);
        const state = stored?.task.status.state;
        if (!stored || (state !== 'TASK_STATE_SUBMITTED' && state !== 'TASK_STATE_WORKING')) return;
        const message = this.agentMessage(`The agent's progress could not be recorded: ${reason}`);
        const status: TaskStatus = { state: 'TASK_STATE_FAILED', timestamp: this.services.now(), message };
        await this.services.store.append(this.taskId, stored.version, { kind: 'status', status });
        return;
      } catch {
        // Still unavailable, or a lost race: look again.
      }
    }
  }

  /** This execution's own last write finished the task. */
  private finishedHere(): boolean {
    return this.lastWritten !== undefined && isTerminal(this.lastWritten);
  }

  /** A status before the task is stored: created with it when the store can, else created first. */
  private async firstStatus(
    state: TaskState,
    content: MessageContent | undefined,
    metadata?: Record<string, unknown>,
  ): Promise<void> {
    const event = (): TaskEvent => this.statusEvent(state, content, metadata);
    if (!this.stored && this.canCreateWith() && (await this.storedWith(event))) return;
    if (!this.stored) await this.ensureStored();
    await this.appendEvent(event());
  }

  /**
   * The task's creation and its first event in one write, when the store offers it (a remote store saves a round
   * trip and a commit). Not with a push config: its delivery cursor starts at the version it is saved on, so it is
   * saved between the two. `false`: not done, write them one by one.
   */
  private async storedWith(makeEvent: () => TaskEvent): Promise<boolean> {
    const { owner } = this;
    const { store } = this.services;
    if (!store.createWith || !this.canCreateWith()) return false;
    const task = this.newTask();
    const event = makeEvent(); // (after the task: its timestamp is not older than the task's)
    let result: { stored: StoredTask; record: TaskEventRecord };
    try {
      result = await store.createWith(task, owner, event);
    } catch (error) {
      if (error instanceof InvalidTransitionError) return false; // the one-by-one path reports it after creating
      this.rejectFirst(toA2AError(error));
      throw error;
    }
    this.version = result.stored.version;
    this.lastWritten = result.stored.task.status.state;
    this.onStored(result.stored);
    this.resolveFirst({ stored: result.stored });
    this.appended(event, result.record);
    return true;
  }

  /** Whether {@link storedWith} may be tried: checked first, so a store without `createWith` costs no async call. */
  private canCreateWith(): boolean {
    return this.services.store.createWith !== undefined && !this.pushConfig && !this.replied;
  }

  /** The task as it is created, with the metadata set before it existed (so its first snapshot shows it). */
  private newTask(): Task {
    const task = newTask(this.taskId, this.contextId, this.message, this.services.now());
    const metadata = this.rare?.createdMetadata;
    if (metadata) task.metadata = metadata;
    return task;
  }

  private async ensureStored(): Promise<void> {
    if (this.stored) return;
    if (this.replied) throw new A2AError('InvalidAgentResponse', 'The agent already answered with a message');
    const { owner, pushConfig } = this;
    const { store, pushStore } = this.services;
    let stored: StoredTask;
    try {
      // The in-memory store without an `await` and without copying the new task twice.
      const task = this.newTask();
      stored = createOwned(store, task, owner, this.handsOverTask) ?? (await store.create(task, owner));
    } catch (error) {
      // The task could not be stored (e.g. the database is down): the waiting caller gets the error, not a hang.
      this.rejectFirst(toA2AError(error));
      throw error;
    }
    this.created(stored);
    if (pushConfig) await pushStore.savePushConfig(pushConfig);
  }

  /**
   * Whether the task is stored, storing it now when {@link ensureStored} would do it synchronously anyway (the
   * in-memory store, no push config to save, no `createWith` to try): the first step of a turn then appends without
   * `firstStatus`/`firstArtifact`'s async frames (docs/performance.md, "Hot-path tricks"). Throws as `ensureStored`
   * rejects; `false` when the async path must do it.
   */
  private storedNow(): boolean {
    if (this.stored) return true;
    const { owner } = this;
    const { store } = this.services;
    if (this.replied || this.pushConfig || !createsOwned(store) || this.canCreateWith()) return false;
    let stored: StoredTask;
    try {
      stored = createOwned(store, this.newTask(), owner, this.handsOverTask) as StoredTask;
    } catch (error) {
      this.rejectFirst(toA2AError(error));
      throw error;
    }
    this.created(stored);
    return true;
  }

  private created(stored: StoredTask): void {
    this.version = stored.version;
    this.lastWritten = stored.task.status.state;
    countCreated();
    this.onStored(stored);
    this.resolveFirst({ stored });
  }

  /**
   * The agent's write must land: a lost race (a client's message or another execution wrote first) is retried on the
   * new version with jittered backoff for as long as it takes; a store outage is retried with backoff until the store
   * is back, for up to `storeRetryMs`. Only then does the execution give up: it is aborted (so its lease is released
   * and the janitor ends the task) rather than left holding a lease for a task it cannot write.
   */
  private appendEvent(event: TaskEvent): Promise<TaskEventRecord>;
  /** The same, resolving to `value` instead of the record (one derived promise less per event for the helpers). */
  private appendEvent<T>(event: TaskEvent, value: T): Promise<T>;
  private appendEvent(event: TaskEvent, value: unknown = RECORD): Promise<unknown> {
    // The write that lands at once (nearly all) without an async frame; a refused one goes on in the retry loop
    // (docs/performance.md, "Hot-path tricks").
    let now: TaskEventRecord | undefined;
    let written: Promise<TaskEventRecord> | undefined;
    try {
      // The in-memory store synchronously: no async frame of its own and no `then` job after it.
      now = appendNow(this.services.store, this.taskId, this.version, event);
      if (!now) written = this.services.store.append(this.taskId, this.version, event);
    } catch (error) {
      return this.appendRetrying(event, error, value);
    }
    if (now) {
      this.appended(event, now);
      const landed = Promise.resolve(value === RECORD ? now : value);
      this.landed = landed;
      return landed;
    }
    return (written as Promise<TaskEventRecord>).then(
      (record) => {
        this.appended(event, record);
        return value === RECORD ? record : value;
      },
      (error: unknown) => this.appendRetrying(event, error, value),
    );
  }

  /** {@link appendEvent} after its first try failed with `failure`. */
  private async appendRetrying(event: TaskEvent, failure: unknown, value: unknown): Promise<unknown> {
    const record = await this.appendRetryLoop(event, failure);
    return value === RECORD ? record : value;
  }

  private async appendRetryLoop(event: TaskEvent, failure: unknown): Promise<TaskEventRecord> {
    let conflicts = 0;
    let outages = 0;
    let outageSince = 0;
    // The version an append failed on with the store unavailable: the write may have committed before the connection
    // dropped, so a later conflict first checks whether the event after it is this one (else it would be written twice).
    let unsureAt: number | undefined;
    for (let error = failure; ; ) {
      if (this.aborted) throw toA2AError(error);
      let outage = false;
      if (error instanceof ConcurrentModificationError) {
        const landed = unsureAt === undefined ? null : await this.landedAt(unsureAt, event);
        if (landed) return this.appended(event, landed);
        // `undefined`: the log cannot say yet whether the lost write landed. The same version is tried again (its
        // conflict asks again), never the next one, where the event would be written a second time. Still the outage.
        if (landed === undefined) outage = true;
        else {
          unsureAt = undefined;
          this.version = error.actualVersion;
          await conflictPause(++conflicts);
        }
      } else if (isStoreUnavailable(error)) {
        unsureAt ??= this.version;
        outage = true;
      } else if (error instanceof InvalidTransitionError && isTerminal(error.from) && !this.finishedHere()) {
        // Finished by someone else (a cancel, possibly on another instance, whose abort has not arrived yet): the
        // execution stops as if canceled; the agent's late update is not an agent failure.
        this.abort(`Task is ${error.from}`);
        throw this.rare?.abortReason;
      } else throw toA2AError(error);
      if (outage) {
        if (outages++ === 0) outageSince = Date.now();
        else if (Date.now() - outageSince >= this.services.storeRetryMs) throw this.gaveUp(error, outageSince);
        await outagePause(outages);
      }
      if (this.aborted) throw this.rare?.abortReason;
      try {
        return this.appended(event, await this.services.store.append(this.taskId, this.version, event));
      } catch (next) {
        error = next;
      }
    }
  }

  /** The end of an outage longer than `storeRetryMs`: the execution stops, and its task fails once the store is back. */
  private gaveUp(error: unknown, outageSince: number): unknown {
    const reason = `the task store was unavailable for ${Math.round((Date.now() - outageSince) / 1000)} s`;
    this.reportError(new Error(`Task ${this.taskId}: gave up writing the agent's update: ${reason}`));
    this.abort(reason);
    void this.failWhenBack(reason);
    return error;
  }

  private appended(event: TaskEvent, record: TaskEventRecord): TaskEventRecord {
    this.version = record.seq;
    this.lastWritten = record.state;
    this.span?.event(event, record.state);
    if (event.kind === 'status' && isTerminal(record.state)) countFinished(record.state, this.began);
    if (event.kind === 'status' && (isTerminal(record.state) || isInterrupted(record.state))) this.endTurn('paused');
    return record;
  }

  /**
   * The log's record right after `version` when it is `event` (an append that committed before its answer was lost);
   * `null` when it is another writer's; `undefined` when the log cannot be read now (the next conflict asks again).
   */
  private async landedAt(version: number, event: TaskEvent): Promise<TaskEventRecord | null | undefined> {
    try {
      const [next] = await this.services.store.readEvents(this.taskId, version);
      return next?.seq === version + 1 && jsonEqual(next.event, event) ? next : null;
    } catch {
      return undefined;
    }
  }
}

/**
 * The artifact-update event of a chunk, or `undefined` when it has no parts. Field by field (conditional spreads cost a
 * fresh hidden class per event on Node 20), into `{}`: V8 gives an empty literal room for four fields inside the
 * object, where a two-field literal grown later carries a separate property array (~40 B per event, held by the live
 * log). docs/performance.md, "Hot-path tricks".
 */
function artifactEvent(chunk: ArtifactChunk, artifactId: string): TaskEvent | undefined {
  const parts: Part[] = chunk.parts ?? (chunk.text !== undefined ? [{ text: chunk.text }] : []);
  if (parts.length === 0) return undefined;
  const artifact = {} as Artifact;
  artifact.artifactId = artifactId;
  artifact.parts = parts;
  if (chunk.name !== undefined) artifact.name = chunk.name;
  if (chunk.description !== undefined) artifact.description = chunk.description;
  if (chunk.metadata !== undefined) artifact.metadata = chunk.metadata;
  if (chunk.extensions !== undefined) artifact.extensions = chunk.extensions;
  const event = {} as Extract<TaskEvent, { kind: 'artifact' }>;
  event.kind = 'artifact';
  event.artifact = artifact;
  if (chunk.append !== undefined) event.append = chunk.append;
  if (chunk.lastChunk !== undefined) event.lastChunk = chunk.lastChunk;
  if (chunk.eventMetadata !== undefined) event.metadata = chunk.eventMetadata;
  return event;
}

/** A settled step. */
const DONE: Promise<void> = Promise.resolve();

/** What holds a running execution (the registry): it lets go of it once, or after its settling failed. */
export interface ExecutionHolder {
  release(execution: Execution, handOver?: boolean): void;
  failed(execution: Execution, error: unknown): void;
}

/** The local coordinator's lease: nothing to release. */
const NO_LEASE: ExecutionLease = { release: () => {} };

/** {@link Execution.appendEvent} without a value: it resolves to the record. */
const RECORD: unique symbol = Symbol('record');

/** The engine's own errors for programming mistakes: their messages describe code (names, properties), not the task. */
const PROGRAMMING_ERRORS = [TypeError, ReferenceError, SyntaxError, RangeError];

/**
 * What the remote client reads when `execute()` throws: the message of an error the agent threw on purpose
 * (`Error`, its own subclasses), but not the engine's text for a bug in the code (a `TypeError` such as
 * "Cannot read properties of undefined (reading 'x')"); `onError` gets the whole error either way.
 */
function failureReason(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  return PROGRAMMING_ERRORS.some((type) => error.constructor === type) ? 'internal error' : error.message;
}

/** What an executor adapter that does not await its helpers writes with (see {@link Execution.submitNow}). */
export type WritesNow = Pick<Execution, 'submitNow' | 'statusNow' | 'artifactNow'>;

/** The context's {@link WritesNow} methods when it is the engine's own execution (it is, for an executor it runs). */
export function writesNow(ctx: AgentContext): WritesNow | undefined {
  return ctx instanceof Execution ? ctx : undefined;
}

/** {@link Execution}'s fields that only a rare path sets, made whole by the first of them (one shape). */
class RareFields {
  /** Made when the executor first reads `signal`: an AbortSignal costs microseconds, and most executors never do. */
  controller: AbortController | undefined = undefined;
  abortReason: A2AError | undefined = undefined;
  /** Between a local CancelTask's abort and its CANCELED write: a CANCELED status the agent publishes is kept for it. */
  canceling = false;
  cancelStatus: CancelStatus | undefined = undefined;
  /** `setMetadata` before the task was stored: the new task's metadata. */
  createdMetadata: Record<string, unknown> | undefined = undefined;
  firstError: { error: unknown } | undefined = undefined;
  turnPromise: Promise<TurnEnd> | undefined = undefined;
  resolveTurn: ((end: TurnEnd) => void) | undefined = undefined;
}
