import type {
  AgentContext,
  Artifact,
  ArtifactChunk,
  Message,
  MessageContent,
  Task,
  TaskState,
  TaskStatus,
} from '@a2a/core';

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

/** Where an event the applier drops is reported (default: `console.warn`). */
export type IgnoredEventReporter = (reason: string, taskId: string) => void;

const TERMINAL = new Set<TaskState>([
  'TASK_STATE_COMPLETED',
  'TASK_STATE_FAILED',
  'TASK_STATE_CANCELED',
  'TASK_STATE_REJECTED',
]);

/**
 * Turns the events an SDK executor publishes into the executor context's helpers, in publish order. An SDK bus is
 * fire-and-forget (`publish` returns nothing), so the helpers' promises are kept here: `drain()` waits for the last one
 * and rethrows the first failure, which fails the task with its message.
 *
 * A hostile or buggy executor is contained: an event for another task or one the translation cannot read fails the
 * task with a message saying so; events after the task finished are dropped and reported.
 */
export class EventApplier {
  /** The last helper call's derived promise (none before the first call). */
  private tail: Promise<unknown> | undefined;
  private failure: unknown;
  private state: TaskState | undefined;
  private created: boolean;
  private over = false;
  /** Artifact ids seen: the first alone (most tasks have one artifact), a Set only from the second on. */
  private firstArtifactId: string | undefined;
  private moreArtifactIds: Set<string> | undefined;
  private markEnded: (() => void) | undefined;
  private endedPromise: Promise<void> | undefined;

  constructor(
    private readonly ctx: AgentContext,
    private readonly report: IgnoredEventReporter,
  ) {
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
    const { ctx } = this;
    if (this.over) {
      this.report(`an event after the task finished was dropped (${event.kind})`, ctx.taskId);
      return;
    }
    const refusal = this.refusal(event);
    if (refusal !== undefined) this.end(ctx.fail(refusal));
    else if (event.kind === 'message') this.end(ctx.reply(content(event.message) as MessageContent));
    else if (event.kind === 'task') this.applyTask(event.task);
    else if (event.kind === 'status') {
      this.mergeMetadata(event.taskMetadata);
      this.applyStatus(event.status, event.metadata);
    } else if (event.kind === 'artifact') {
      this.mergeMetadata(event.taskMetadata);
      this.applyArtifact(event.artifact, event);
    }
  }

  /** Why an event fails the task, if it does: unreadable, another task's, or a message with nothing in it. */
  private refusal(event: CompatEvent): string | undefined {
    if (event.kind === 'invalid') return `The agent published an unreadable event: ${event.reason}`;
    if (event.kind === 'message') {
      return content(event.message) ? undefined : 'The agent published a message without parts';
    }
    const taskId = event.kind === 'task' ? event.task.id : event.taskId;
    if (taskId && taskId !== this.ctx.taskId) {
      return `The agent published an event for task ${taskId} while working on task ${this.ctx.taskId}`;
    }
    return undefined;
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
    this.track(this.ctx.artifact(chunk));
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

  /** Waits for every helper called so far; rethrows the first failure. */
  drain(): Promise<void> {
    return this.tail ? this.tail.then(this.rethrow) : Promise.resolve();
  }

  private readonly rethrow = (): void => {
    if (this.failure !== undefined) throw this.failure;
  };

  /**
   * A whole Task: the SDK's way to create one (usually SUBMITTED with the user's message) or to restate it. Its
   * metadata is merged, artifacts not seen yet are added, and a state other than the current one is applied.
   */
  private applyTask(task: Task): void {
    const { ctx } = this;
    const artifacts = task.artifacts?.length
      ? task.artifacts.filter((artifact) => !this.seen(artifact.artifactId))
      : [];
    const state = task.status?.state;
    const changes = state && state !== 'TASK_STATE_SUBMITTED' && state !== this.state;
    if (!this.created) {
      // With its metadata, so the task's first snapshot (a stream's first event) is the task as published. Without
      // any, the next helper creates the task: one store write fewer (docs/performance.md, "SDK executors…").
      this.created = true;
      if (hasKeys(task.metadata)) this.track(ctx.setMetadata(task.metadata));
      else if (!artifacts.length && !changes) this.track(ctx.submit());
    } else this.mergeMetadata(task.metadata);
    for (const artifact of artifacts) this.applyArtifact(artifact); // (the task's own: `apply` checked its id)
    if (changes) this.applyStatus(task.status, undefined);
  }

  private applyStatus(status: TaskStatus, metadata: Record<string, unknown> | undefined): void {
    const options = metadata && Object.keys(metadata).length ? { metadata } : undefined;
    this.state = status.state;
    this.created = true;
    const written = this.ctx.status(status.state, status.message ? content(status.message) : undefined, options);
    if (TERMINAL.has(status.state)) this.end(written);
    else this.track(written);
  }

  private mergeMetadata(metadata: Record<string, unknown> | undefined): void {
    if (!hasKeys(metadata)) return;
    this.created = true;
    this.track(this.ctx.setMetadata(metadata));
  }

  private end(written: Promise<unknown>): void {
    this.over = true;
    this.markEnded?.();
    this.track(written);
  }

  /** One derived promise per helper call: it records the first failure and is the tail `drain()` waits for. */
  private track(written: Promise<unknown>): void {
    this.tail = written.then(undefined, this.recordFailure);
  }

  private readonly recordFailure = (error: unknown): void => {
    this.failure ??= error;
  };
}

const hasKeys = (record: Record<string, unknown> | undefined): record is Record<string, unknown> =>
  record !== undefined && Object.keys(record).length > 0;

/** A message as the helpers take it: its own parts and fields (the context sets role, task and context ids). */
function content(message: Message): MessageContent | undefined {
  if (!message.parts?.length) return undefined;
  const { role: _role, taskId: _taskId, contextId: _contextId, ...rest } = message;
  return rest;
}
