import type { Message, Part } from '../schemas/message.js';
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
  metadata?: Record<string, unknown>;
  extensions?: string[];
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
  /** Extensions activated for this request. */
  readonly extensions: readonly string[];
  /** The request's `metadata`. */
  readonly metadata: Record<string, unknown> | undefined;
  /** The wire version the message arrived in: '1.0', or a legacy one such as '0.3' (translated to v1.0 for you). */
  readonly protocolVersion: string;
  /** Aborted when the task is canceled (never because a client disconnected). */
  readonly signal: AbortSignal;

  /** Answer with a message and no task. If a task already exists (e.g. `returnImmediately`), it completes with it. */
  reply(content: MessageContent): Promise<void>;
  /** Create the task now (SUBMITTED) without changing anything else. */
  submit(): Promise<void>;
  working(content?: MessageContent): Promise<void>;
  inputRequired(content: MessageContent): Promise<void>;
  authRequired(content: MessageContent): Promise<void>;
  complete(content?: MessageContent): Promise<void>;
  fail(content: MessageContent): Promise<void>;
  reject(content: MessageContent): Promise<void>;
  /** Any state change, with an optional status message. */
  status(state: TaskState, content?: MessageContent): Promise<void>;
  /** Add an artifact or stream a chunk into one; returns the artifact id. */
  artifact(chunk: ArtifactChunk): Promise<string>;
  /** Build an agent message for this task (handy for custom status updates). */
  agentMessage(content: MessageContent): Message;
}

export interface AgentExecutor {
  /** Handle one incoming message. Throwing turns the task FAILED with the error's message. */
  execute(context: AgentContext): void | Promise<void>;
  /**
   * Optional hook run on CancelTask before the task becomes CANCELED (the context's signal is already aborted).
   * Throw an A2AError('TaskNotCancelable', …) to refuse.
   */
  cancel?(context: AgentContext): void | Promise<void>;
}

export type { Artifact };
