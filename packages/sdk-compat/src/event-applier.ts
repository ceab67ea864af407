import type {
  AgentContext,
  Artifact,
  ArtifactChunk,
  Message,
  MessageContent,
  StatusOptions,
  Task,
  TaskState,
  TaskStatus,
} from '@a2a/core';
import { type WritesNow, writesNow } from '@a2a/core/internal';

/** An SDK event, already translated to v1.0 objects (each SDK generation has its own translation). */
export type CompatEvent =
  | { kind: 'message'; message: Message }
  | { kind: 'task'; task: Task }
  | {
      kind: 'status';
      taskId: string;
      status: TaskStatus;
      metadata?: Record<string, unknown> | undefined;
      /** Merged into the task's own metadata as well (the 1.x SDK folds event metadata into the task). */
      taskMetadata?: Record<string, unknown> | undefined;
    }
  | {
      kind: 'artifact';
      taskId: string;
      artifact: Artifact;
      append?: boolean | undefined;
      lastChunk?: boolean | undefined;
      metadata?: Record<string, unknown> | undefined;
      taskMetadata?: Record<string, unknown> | undefined;
    }
  /** Something the translation could not read; `reason` says what. */
  | { kind: 'invalid'; reason: string };

/** A chunk for `ctx.artifact` that names its artifact (what the translation's fast paths make). */
export type ChunkWithId = ArtifactChunk & { artifactId: string };

/** Where an event the applier drops is reported (default: `console.warn`). */
export type IgnoredEventReporter = (reason: string, taskId: string) => void;

const TERMINAL = new Set<TaskState>([
  'TASK_STATE_COMPLETED',
  'TASK_STATE_FAILED',
  'TASK_STATE_CANCELED',
  'TASK_STATE_REJECTED',
]);

/**
 * A helper call waiting for the one before it to settle: its operation, then only the arguments it has (none for
 * `Submit`, three for `Status`, one for the rest; a status without a message or options is `BareStatus`, its state
 * alone). Fewer slots than four a call: a 10-event stream's nine waiting calls fit the array's first allocation.
 */
enum Op {
  Submit,
  SetMetadata,
  Reply,
  Fail,
  Status,
  BareStatus,
  Artifact,
}

/**
 * Turns the events an SDK executor publishes into the executor context's helpers, in publish order. An SDK bus is
 * fire-and-forget (`publish` returns nothing), so the helpers' promises are kept here: `drain()` waits for the last one
 * and rethrows the first failure, which fails the task with its message.
 *
 * One helper call at a time: a call made while the previous one is unsettled waits here, in a flat queue, and is made
 * when that one settles, as an agent that awaits each helper would make it. An executor publishes its events in one
 * go, before the task is stored; handed to the context at once, each would queue behind the context's own chain (a
 * derived promise and a thenable hop per call), where made one after the other each runs at once on the stored task.
 * Order and results are the same; a CANCELED status is made at once, after the waiting calls, as the cancel window
 * needs it. docs/performance.md, "SDK executors through @a2a/sdk-compat", fifth round.
 *
 * A hostile or buggy executor is contained: an event for another task or one the translation cannot read fails the
 * task with a message saying so; events after the task finished are dropped and reported.
 */
export class EventApplier {
  /** Helper calls made and not settled yet. */
  private inFlight = 0;
  /** Calls waiting for those, one to four slots each (`Op`, then its arguments); made by the first call that waits. */
  private waiting: unknown[] | undefined;
  /** Where the next waiting call starts in `waiting` (read by index, not shifted: a splice per call cost ~0.7 µs a stream). */
  private next = 0;
  private failure: unknown;
  /** Told when no helper call is in flight any more (the execution, once the executor's `execute()` returned). */
  whenIdle: { idle(): void } | undefined;
  private markDrained: (() => void) | undefined;
  private failDrained: ((error: unknown) => void) | undefined;
  private drainedPromise: Promise<void> | undefined;
  private state: TaskState | undefined;
  private created: boolean;
  private over = false;
  /** Artifact ids seen: the first alone (most tasks have one artifact), a Set only from the second on. */
  private firstArtifactId: string | undefined;
  private moreArtifactIds: Set<string> | undefined;
  private markEnded: (() => void) | undefined;
  private endedPromise: Promise<void> | undefined;

  /** The engine's calls that write at once when they can (see `invoke`). */
  private readonly now: WritesNow | undefined;
  /** The handlers of a helper call's promise: made when a call does not land at once (see `invoke`). */
  private onSettled: (() => void) | undefined;
  private onFailed: ((error: unknown) => void) | undefined;

  constructor(
    private readonly ctx: AgentContext,
    private readonly report: IgnoredEventReporter,
  ) {
    this.now = writesNow(ctx);
    this.state = ctx.task?.status.state;
    this.created = ctx.task !== undefined;
    for (const artifact of ctx.task?.artifacts ?? []) this.remember(artifact.artifactId);
  }

  /** The task reached a terminal state or was answered with a message: later events are dropped. */
  get finished(): boolean {
    return this.over;
  }

  /** Resolves when the task finished (see {@link finished}); made when first asked for (only a cancel waits on it). */
  get ended(): Promise<void> {
    this.endedPromise ??= this.over ? Promise.resolve() : new Promise((resolve) => (this.markEnded = resolve));
    return this.endedPromise;
  }

  apply(event: CompatEvent): void {
    if (this.over) {
      this.dropLate(event.kind);
      return;
    }
    const refusal = this.refusal(event);
    if (refusal !== undefined) this.end(Op.Fail, refusal);
    else if (event.kind === 'message') this.end(Op.Reply, content(event.message));
    else if (event.kind === 'task') this.applyTask(event.task);
    else if (event.kind === 'status') {
      this.mergeMetadata(event.taskMetadata);
      this.applyStatus(event.status, event.metadata);
    } else if (event.kind === 'artifact') {
      this.mergeMetadata(event.taskMetadata);
      this.applyArtifact(event.artifact, event);
    }
  }

  /**
   * A status update without a message or metadata, as `apply` takes it, without the event object: the translation's
   * fast path calls this straight from the SDK event (docs/performance.md, "SDK executors…", fifth round).
   */
  applyBareStatus(taskId: string, state: TaskState): void {
    if (this.over) this.dropLate('status');
    else if (taskId && taskId !== this.ctx.taskId) this.end(Op.Fail, otherTask(taskId, this.ctx.taskId));
    else this.applyState(state, undefined, undefined);
  }

  /** An artifact update already made the chunk `ctx.artifact` takes (the translation's fast path, as above). */
  applyChunk(taskId: string, chunk: ChunkWithId): void {
    if (this.over) this.dropLate('artifact');
    else if (taskId && taskId !== this.ctx.taskId) this.end(Op.Fail, otherTask(taskId, this.ctx.taskId));
    else {
      this.remember(chunk.artifactId);
      this.call(Op.Artifact, chunk);
    }
  }

  private dropLate(kind: string): void {
    this.report(`an event after the task finished was dropped (${kind})`, this.ctx.taskId);
  }

  /** Why an event fails the task, if it does: unreadable, another task's, or a message with nothing in it. */
  private refusal(event: CompatEvent): string | undefined {
    if (event.kind === 'invalid') return `The agent published an unreadable event: ${event.reason}`;
    if (event.kind === 'message') {
      return content(event.message) ? undefined : 'The agent published a message without parts';
    }
    const taskId = event.kind === 'task' ? event.task.id : event.taskId;
    return taskId && taskId !== this.ctx.taskId ? otherTask(taskId, this.ctx.taskId) : undefined;
  }

  /** `event`: the update's flags and metadata; none for an artifact of a whole Task. */
  private applyArtifact(artifact: Artifact, event?: Extract<CompatEvent, { kind: 'artifact' }>): void {
    this.remember(artifact.artifactId);
    // Field by field: a conditional spread per field costs a fresh hidden class per event (docs/performance.md).
    const chunk: ArtifactChunk = { artifactId: artifact.artifactId, parts: artifact.parts };
    if (artifact.name) chunk.name = artifact.name;
    if (artifact.description) chunk.description = artifact.description;
    if (artifact.metadata) chunk.metadata = artifact.metadata;
    if (artifact.extensions?.length) chunk.extensions = artifact.extensions;
    if (event?.append) chunk.append = true;
    if (event?.lastChunk) chunk.lastChunk = true;
    if (hasKeys(event?.metadata)) chunk.eventMetadata = event.metadata;
    this.call(Op.Artifact, chunk);
  }

  private seen(artifactId: string): boolean {
    return artifactId === this.firstArtifactId || this.moreArtifactIds?.has(artifactId) === true;
  }

  private remember(artifactId: string): void {
    if (this.firstArtifactId === undefined) this.firstArtifactId = artifactId;
    else if (artifactId !== this.firstArtifactId) {
      this.moreArtifactIds ??= new Set();
      this.moreArtifactIds.add(artifactId);
    }
  }

  /** No helper call is unsettled or waiting. */
  get idle(): boolean {
    return this.inFlight === 0;
  }

  /** Throws the first failure of a helper call, if one failed. */
  throwFailure(): void {
    if (this.failure !== undefined) throw this.failure;
  }

  /** Waits for every helper called so far; rejects with the first failure. */
  drain(): Promise<void> {
    if (this.inFlight > 0) {
      this.drainedPromise ??= new Promise((resolve, reject) => {
        this.markDrained = resolve;
        this.failDrained = reject;
      });
      return this.drainedPromise;
    }
    return this.failure === undefined ? Promise.resolve() : Promise.reject(this.failure);
  }

  /** Makes the waiting calls now, each queued in the context behind the one before (what a cancel needs at once). */
  flush(): void {
    const { waiting } = this;
    if (!waiting) return;
    for (let i = this.next; i < waiting.length; i += width(waiting[i] as Op)) this.invokeWaiting(i);
    waiting.length = 0;
    this.next = 0;
  }

  /**
   * A whole Task: the SDK's way to create one (usually SUBMITTED with the user's message) or to restate it. Its
   * metadata is merged, artifacts not seen yet are added, and a state other than the current one is applied.
   */
  private applyTask(task: Task): void {
    this.taskOf(task.status?.state, task.status?.message, task.metadata, task.artifacts, false);
  }

  /**
   * A Task event without metadata or a status message whose artifacts the translation already made the chunks
   * `ctx.artifact` takes: `apply` of the same task without the event, the task and the chunk copies between
   * (docs/performance.md, "SDK executors…", sixth round).
   */
  applyPlainTask(taskId: string, state: TaskState, chunks: readonly ChunkWithId[] | undefined): void {
    if (this.over) this.dropLate('task');
    else if (taskId && taskId !== this.ctx.taskId) this.end(Op.Fail, otherTask(taskId, this.ctx.taskId));
    else this.taskOf(state, undefined, undefined, chunks, true);
  }

  /** `chunks`: the artifacts are the chunks `ctx.artifact` takes (else each is copied into one). */
  private taskOf(
    state: TaskState | undefined,
    message: Message | undefined,
    metadata: Record<string, unknown> | undefined,
    artifacts: readonly (Artifact | ChunkWithId)[] = NONE,
    chunks: boolean,
  ): void {
    // Those not seen before this event, counted rather than filtered into a new array (one per SendMessage).
    const count = artifacts.length;
    let fresh = 0;
    for (let i = 0; i < count; i++) if (!this.seen((artifacts[i] as ChunkWithId).artifactId)) fresh++;
    const changes = state && state !== 'TASK_STATE_SUBMITTED' && state !== this.state;
    if (!this.created) {
      // With its metadata, so the task's first snapshot (a stream's first event) is the task as published. Without
      // any, the next helper creates the task: one store write fewer (docs/performance.md, "SDK executors…").
      this.created = true;
      if (hasKeys(metadata)) this.call(Op.SetMetadata, metadata);
      else if (!fresh && !changes) this.call(Op.Submit);
    } else this.mergeMetadata(metadata);
    if (fresh) {
      // Which ones is decided before any is remembered (a task may name one artifact id twice).
      const unseen = fresh === count ? undefined : artifacts.map((artifact) => !this.seen(artifact.artifactId));
      for (let i = 0; i < count; i++) {
        if (unseen && !unseen[i]) continue;
        const artifact = artifacts[i] as Artifact | ChunkWithId;
        if (chunks) {
          this.remember(artifact.artifactId);
          this.call(Op.Artifact, artifact);
        } else this.applyArtifact(artifact as Artifact); // (the task's own: its id was checked)
      }
    }
    if (changes) this.applyState(state, message ? content(message) : undefined, undefined);
  }

  private applyStatus(status: TaskStatus, metadata: Record<string, unknown> | undefined): void {
    const options = metadata && Object.keys(metadata).length ? { metadata } : undefined;
    this.applyState(status.state, status.message ? content(status.message) : undefined, options);
  }

  private applyState(state: TaskState, message: MessageContent | undefined, options: StatusOptions | undefined): void {
    this.state = state;
    this.created = true;
    if (state === 'TASK_STATE_CANCELED') {
      // At once: a cancel takes the agent's CANCELED only while its window is open (core's `status`).
      this.flush();
      this.invoke(Op.Status, state, message, options);
      this.over = true;
      this.markEnded?.();
    } else if (TERMINAL.has(state)) this.end(Op.Status, state, message, options);
    else this.call(Op.Status, state, message, options);
  }

  private mergeMetadata(metadata: Record<string, unknown> | undefined): void {
    if (!hasKeys(metadata)) return;
    this.created = true;
    this.call(Op.SetMetadata, metadata);
  }

  private end(op: Op, a?: unknown, b?: unknown, c?: unknown): void {
    this.call(op, a, b, c);
    this.over = true;
    this.markEnded?.();
  }

  /** Made now when no call is unsettled, else when the ones before it settled (see the class comment). */
  private call(op: Op, a?: unknown, b?: unknown, c?: unknown): void {
    if (this.inFlight === 0) {
      this.invoke(op, a, b, c);
      return;
    }
    this.waiting ??= [];
    if (op === Op.Status) {
      if (b === undefined && c === undefined) this.waiting.push(Op.BareStatus, a);
      else this.waiting.push(op, a, b, c);
    } else if (op === Op.Submit) this.waiting.push(op);
    else this.waiting.push(op, a);
  }

  /** Makes the waiting call at `i`. */
  private invokeWaiting(i: number): void {
    const waiting = this.waiting as unknown[];
    const op = waiting[i] as Op;
    if (op === Op.Status) this.invoke(op, waiting[i + 1], waiting[i + 2], waiting[i + 3]);
    else this.invoke(op, op === Op.Submit ? undefined : waiting[i + 1], undefined, undefined);
  }

  /**
   * One helper call. A submit, status or artifact whose write lands at once (the in-memory store, the task stored,
   * nothing queued in the context) is made with the engine's `*Now` calls: done on return, no promise and no `then`
   * (~0.2 KB a call) — an SDK executor's events are then written as it publishes them. Anything else returns the
   * helper's promise, which gets the shared handlers: they record the first failure and make the next call.
   * docs/performance.md, "SDK executors through @a2a/sdk-compat", tenth round.
   */
  private invoke(op: Op, a: unknown, b: unknown, c: unknown): void {
    const { ctx, now } = this;
    let written: Promise<unknown> | undefined;
    if (op === Op.Artifact) written = now ? now.artifactNow(a as ArtifactChunk) : ctx.artifact(a as ArtifactChunk);
    else if (op === Op.Status || op === Op.BareStatus) {
      written = now
        ? now.statusNow(a as TaskState, b as MessageContent | undefined, c as StatusOptions)
        : ctx.status(a as TaskState, b as MessageContent | undefined, c as StatusOptions);
    } else if (op === Op.Submit) written = now ? now.submitNow() : ctx.submit();
    else if (op === Op.SetMetadata) written = ctx.setMetadata(a as Record<string, unknown>);
    else if (op === Op.Reply) written = ctx.reply(a as MessageContent);
    else written = ctx.fail(a as MessageContent);
    if (written === undefined) return;
    this.inFlight++;
    this.onSettled ??= () => this.settled();
    this.onFailed ??= (error: unknown) => {
      this.failure ??= error;
      this.settled();
    };
    written.then(this.onSettled, this.onFailed);
  }

  /** A helper call settled: when none is left in flight, the waiting ones are made, then whoever waits is told. */
  private settled(): void {
    if (--this.inFlight > 0) return;
    const { waiting } = this;
    while (waiting !== undefined && this.next < waiting.length) {
      // The next waiting call; those after it wait for it in turn (or are made now if it landed at once).
      const i = this.next;
      const next = i + width(waiting[i] as Op);
      // (Read before the queue is reset, which may drop the call's slots.)
      const op = waiting[i] as Op;
      const a = op === Op.Submit ? undefined : waiting[i + 1];
      const b = op === Op.Status ? waiting[i + 2] : undefined;
      const c = op === Op.Status ? waiting[i + 3] : undefined;
      if (next === waiting.length) {
        waiting.length = 0;
        this.next = 0;
      } else this.next = next;
      this.invoke(op, a, b, c);
      if (this.inFlight > 0) return;
    }
    const { markDrained, failDrained, whenIdle } = this;
    this.markDrained = this.failDrained = this.whenIdle = undefined;
    this.drainedPromise = undefined;
    whenIdle?.idle();
    if (this.failure === undefined) markDrained?.();
    else failDrained?.(this.failure);
  }
}

const NONE: readonly ChunkWithId[] = [];

/** How many slots a waiting call takes in the queue (see `Op`). */
const width = (op: Op): number => (op === Op.Status ? 4 : op === Op.Submit ? 1 : 2);

const otherTask = (taskId: string, own: string) =>
  `The agent published an event for task ${taskId} while working on task ${own}`;

const hasKeys = (record: Record<string, unknown> | undefined): record is Record<string, unknown> =>
  record !== undefined && Object.keys(record).length > 0;

/** A message as the helpers take it: its own parts and fields (the context sets role, task and context ids). */
function content(message: Message): MessageContent | undefined {
  if (!message.parts?.length) return undefined;
  const { role: _role, taskId: _taskId, contextId: _contextId, ...rest } = message;
  return rest;
}
