import type { Message, Part } from '../schemas/message.js';
import type { SendMessageConfiguration } from '../schemas/requests.js';
import type { Artifact, Task, TaskState } from '../schemas/task.js';

/** The authenticated caller, as the host app knows it (e.g. from `req.user`). Tasks are scoped to `id`. */
export interface A2AUser {
  id: string;
  /** Granted scopes, checked against the card's security requirements when present. */
  scopes?: readonly string[] | undefined;
  [key: string]: unknown;
}

/** Per-request facts the transport hands to the engine. */
export interface CallContext {
  user?: A2AUser | undefined;
  tenant?: string | undefined;
  /** Extensions the client requested that the agent declares (the activated set). */
  extensions?: readonly string[] | undefined;
  /** Aborts when the client goes away (it never stops the task itself). */
  signal?: AbortSignal | undefined;
  /** SSE `Last-Event-ID` of a client resuming a stream. */
  lastEventId?: string | undefined;
  /** The wire version the request arrived in when it was a legacy one (e.g. '0.3'); absent for v1.0. */
  protocolVersion?: string | undefined;
  /** Free-form per-request state from the host (`A2ARequestContext.state`), handed to the executor as `ctx.state`. */
  state?: Record<string, unknown> | undefined;
}

/** Text, parts, or a partial message: everything the publishing helpers accept as message content. */
export type MessageContent = string | Part[] | (Partial<Omit<Message, 'role'>> & { parts: Part[] });

export interface ArtifactChunk {
  /** Defaults to a new id; reuse it with `append: true` to stream chunks into one artifact. */
  artifactId?: string;
  name?: string;
  description?: string;
  /** Text shortcut for `parts: [{ text }]`. */
  text?: string;
  parts?: Part[];
  append?: boolean;
  lastChunk?: boolean;
  /** The artifact's own metadata (merged into the stored artifact's on `append`). */
  metadata?: Record<string, unknown>;
  extensions?: string[];
  /** The artifact-update event's `metadata` (streamed and pushed with this chunk; not stored on the task). */
  eventMetadata?: Record<string, unknown>;
}

/** The last argument of the status helpers. */
export interface StatusOptions {
  /** The status-update event's `metadata` (streamed and pushed with this change; not stored on the task). */
  metadata?: Record<string, unknown>;
}

/**
 * What an executor sees and uses. Every helper is ordered (calls are applied in call order even when not awaited)
 * and resolves once the change is stored and visible to GetTask, streams and push. A lost race is re-applied on the
 * new version; a store outage is waited out (up to the handler's `storeRetryMs`, then `signal` aborts).
 * Work may go on after `execute()` returns: the context stays usable until the task is finished.
 */
export interface AgentContext {
  readonly taskId: string;
  readonly contextId: string;
  /** The incoming user message. */
  readonly message: Message;
  /** The task as it was before this message (`undefined` for a new task). */
  readonly task: Task | undefined;
  readonly user: A2AUser | undefined;
  readonly tenant: string | undefined;
  /**
   * Extensions activated for this request: those the client requested (`A2A-Extensions`) that the card declares. It
   * stays as given; {@link activateExtension} and {@link declineExtension} change only the response header.
   */
  readonly extensions: readonly string[];
  /** The request's `metadata`. */
  readonly metadata: Record<string, unknown> | undefined;
  /**
   * The request's `configuration` as received (`acceptedOutputModes`, `historyLength`, `returnImmediately`,
   * `taskPushNotificationConfig`); `undefined` when the client sent none.
   */
  readonly configuration: SendMessageConfiguration | undefined;
  /**
   * Free-form per-request state from the host: the `state` of the `A2ARequestContext` an adapter's `context` hook or
   * `createA2AHandler`'s `context` option returns (e.g. request headers the executor needs). `undefined` when none.
   */
  readonly state: Record<string, unknown> | undefined;
  /** The wire version the message arrived in: '1.0', or a legacy one such as '0.3' (translated to v1.0 for you). */
  readonly protocolVersion: string;
  /** Aborted when the task is canceled (never because a client disconnected). */
  readonly signal: AbortSignal;

  /** Answer with a message and no task. If a task already exists (e.g. `returnImmediately`), it completes with it. */
  reply(content: MessageContent): Promise<void>;
  /** Create the task now (SUBMITTED) without changing anything else. */
  submit(): Promise<void>;
  /** The status helpers: `options.metadata` is the status-update event's metadata. */
  working(content?: MessageContent, options?: StatusOptions): Promise<void>;
  inputRequired(content: MessageContent, options?: StatusOptions): Promise<void>;
  authRequired(content: MessageContent, options?: StatusOptions): Promise<void>;
  complete(content?: MessageContent, options?: StatusOptions): Promise<void>;
  fail(content: MessageContent, options?: StatusOptions): Promise<void>;
  reject(content: MessageContent, options?: StatusOptions): Promise<void>;
  /**
   * Any state change, with an optional status message. `TASK_STATE_CANCELED` published while a CancelTask is under way
   * on this instance (from the `cancel` hook, or from `execute()` after `signal` aborted, before the cancel writes)
   * becomes that cancel's status: its message and metadata are the CANCELED status's, written once by the cancel, and
   * the promise resolves at once (the cancel writes after the hook returns). Published later, it is ignored.
   */
  status(state: TaskState, content?: MessageContent, options?: StatusOptions): Promise<void>;
  /** Add an artifact or stream a chunk into one; returns the artifact id. */
  artifact(chunk: ArtifactChunk): Promise<string>;
  /**
   * Shallow-merges `metadata` into the task's own `metadata` (GetTask, ListTasks and later snapshots show it), creating
   * the task first when it is not stored yet. Not streamed as an event of its own. Refused once the task is finished.
   */
  setMetadata(metadata: Record<string, unknown>): Promise<void>;
  /**
   * Lists `uri` in this response's `A2A-Extensions` header (the extensions this request activated). Only a URI the
   * card declares: any other is ignored. The header is written when the response is built: for a blocking
   * SendMessage once the turn is over (a terminal or interrupted state, or `execute()` returned), with
   * `returnImmediately` right after the task is created, for a stream when its first event (the task) is sent. A call
   * after that has no effect, and neither does one in a later turn of the task. Not on gRPC (its header goes first).
   */
  activateExtension(uri: string): void;
  /** Leaves `uri` out of this response's `A2A-Extensions` header; same timing as {@link activateExtension}. */
  declineExtension(uri: string): void;
  /** Build an agent message for this task (handy for custom status updates). */
  agentMessage(content: MessageContent): Message;
}

export interface AgentExecutor {
  /** Handle one incoming message. Throwing turns the task FAILED with the error's message. */
  execute(context: AgentContext): void | Promise<void>;
  /**
   * Optional hook run on CancelTask before the task becomes CANCELED (the context's signal is already aborted; other
   * publications are ignored). Throw an A2AError('TaskNotCancelable', …) to refuse. `ctx.status('TASK_STATE_CANCELED',
   * content, options)` here sets the CANCELED status's message and event metadata (one CANCELED event, the cancel's).
   * When the cancel is requested on another instance, the hook runs here once the abort arrives and its status is
   * ignored.
   */
  cancel?(context: AgentContext): void | Promise<void>;
}

export type { Artifact };
