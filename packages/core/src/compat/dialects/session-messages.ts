import { isObject } from '../../is-object.js';
import type { Message } from '../../schemas/message.js';
import type { Task } from '../../schemas/task.js';
import { isInterrupted, isTerminal } from '../../task-state.js';
import { isArtifactPart, partToArtifact, type SessionArtifact, taskArtifacts } from './session-artifacts.js';

// The sessions dialect's messages `{id, role, content, created_at, in_reply_to?, metadata?, artifacts?}` read from
// the tasks of the session's context. A client's message carries what A2A has no field for (its sessions role,
// creation time, `in_reply_to`) in its metadata under MESSAGE_KEY; an agent message is dated by the status that
// brought it (the last one) or by the message before it. Each task's answer is its last agent message, which also
// carries the task's artifacts and state (`task_id`, `task_state`); a task that answered with artifacts only gets a
// reply of its own (`<task id>:reply`), the same one every time it is read.

export const MESSAGE_KEY = 'a2a.sessions';

export interface SessionMessage {
  id: string;
  role: 'user' | 'agent' | 'system';
  content: string;
  created_at: string;
  in_reply_to?: string;
  metadata?: Record<string, unknown>;
  artifacts?: SessionArtifact[];
  task_id?: string;
  task_state?: string;
}

/** What the dialect records on a client's message. */
export interface MessageStamp {
  role: 'user' | 'system';
  created_at: string;
  in_reply_to?: string;
}

const stampOf = (message: Message): Partial<MessageStamp> =>
  isObject(message.metadata?.[MESSAGE_KEY]) ? (message.metadata[MESSAGE_KEY] as Partial<MessageStamp>) : {};

/** `TASK_STATE_INPUT_REQUIRED` → `input-required`. */
const stateName = (state: string) =>
  state
    .replace(/^TASK_STATE_/, '')
    .toLowerCase()
    .replace(/_/g, '-');

/** A message on its own (a direct answer that belongs to no task). */
export function sessionMessage(message: Message, createdAt: string, inReplyTo?: string): SessionMessage {
  const stamp = stampOf(message);
  const isUser = message.role === 'ROLE_USER';
  const { [MESSAGE_KEY]: _own, ...metadata } = message.metadata ?? {};
  const artifacts = message.parts
    .filter(isArtifactPart)
    .map((part, i) => partToArtifact(part, `${message.messageId}#${i + 1}`));
  const replyTo = isUser ? stamp.in_reply_to : inReplyTo;
  return {
    id: message.messageId,
    role: isUser ? (stamp.role === 'system' ? 'system' : 'user') : 'agent',
    content: message.parts
      .filter((p) => !isArtifactPart(p))
      .map((p) => p.text)
      .join('\n'),
    created_at: (isUser && stamp.created_at) || createdAt,
    ...(replyTo !== undefined && { in_reply_to: replyTo }),
    ...(Object.keys(metadata).length > 0 && { metadata }),
    ...(artifacts.length > 0 && { artifacts }),
    ...(message.taskId !== undefined && { task_id: message.taskId }),
  };
}

/** Every message of a task, in order, its answer completed with the task's artifacts and state. */
export function taskMessages(task: Task): SessionMessage[] {
  const history = task.history ?? [];
  const statusTime = task.status.timestamp ?? '';
  const out: SessionMessage[] = [];
  let time = statusTime;
  let lastUser: string | undefined;
  history.forEach((message, i) => {
    const isStatus = i === history.length - 1 && task.status.message?.messageId === message.messageId;
    const view = sessionMessage(message, isStatus ? statusTime : time, lastUser);
    view.task_id = task.id;
    out.push(view);
    time = view.created_at;
    if (message.role === 'ROLE_USER') lastUser = message.messageId;
  });
  const state = task.status.state;
  const answered = isTerminal(state) || isInterrupted(state);
  let answer = out.length && out[out.length - 1]?.role === 'agent' ? out[out.length - 1] : undefined;
  if (!answer && answered) {
    answer = {
      id: `${task.id}:reply`,
      role: 'agent',
      content: '',
      created_at: statusTime,
      ...(lastUser !== undefined && { in_reply_to: lastUser }),
      task_id: task.id,
    };
    out.push(answer);
  }
  if (answer) {
    const artifacts = [...(answer.artifacts ?? []), ...taskArtifacts(task.artifacts)];
    if (artifacts.length) answer.artifacts = artifacts;
    answer.task_state = stateName(state);
  }
  return out;
}

/** The messages of a context's tasks: tasks in the order they began, each task's messages in its order. */
let lastStamp = 0;
/**
 * Now, as a message's `created_at`: strictly increasing within this process, so that messages sent in the same
 * millisecond keep their order (a session lists its tasks by their first message's stamp).
 */
export function messageTime(): string {
  lastStamp = Math.max(Date.now(), lastStamp + 1);
  return new Date(lastStamp).toISOString();
}

export function contextMessages(tasks: readonly Task[]): SessionMessage[] {
  const began = (task: Task) => {
    const first = task.history?.[0];
    return (first && stampOf(first).created_at) || task.status.timestamp || '';
  };
  return [...tasks]
    .map((task) => ({ task, at: began(task) }))
    .sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : a.task.id < b.task.id ? -1 : 1))
    .flatMap(({ task }) => taskMessages(task));
}
