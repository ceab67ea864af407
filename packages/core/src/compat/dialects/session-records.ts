import { newId } from '../../ids.js';
import { isObject } from '../../is-object.js';
import type { Task } from '../../schemas/task.js';
import type { CallContext } from '../../server/agent-executor.js';
import { ownerOf } from '../../server/request-handler.js';
import { ConcurrentModificationError, type StoredTask, type TaskStore } from '../../store/task-store.js';
import { isTerminal } from '../../task-state.js';

// A session is an A2A context; the one thing a context does not have is a record of its own (when it was made, its
// metadata, that it ended). That record is kept in the task store as a task of the session's id, under an owner key
// of its own (the caller's key plus a suffix), so that no v1.0 operation of the caller ever sees it (every task read
// and list is scoped by owner) and no store needs a new table. Active = INPUT_REQUIRED (waiting for the client: no
// execution and no janitor looks at it); ended = COMPLETED. Its status timestamp is the session's `updated_at`.

const KEY = 'a2a.sessions';

export interface SessionView {
  id: string;
  created_at: string;
  updated_at: string;
  status: 'active' | 'completed';
  metadata?: Record<string, unknown>;
}

const recordOwner = (call: CallContext) => `${ownerOf(call)}\u0000sessions`;

export async function createSession(
  store: TaskStore,
  call: CallContext,
  metadata: Record<string, unknown> | undefined,
): Promise<SessionView> {
  const id = newId();
  const now = new Date().toISOString();
  const record: Task = {
    id,
    contextId: id,
    status: { state: 'TASK_STATE_INPUT_REQUIRED', timestamp: now },
    metadata: { [KEY]: { created_at: now, ...(metadata && { metadata }) } },
  };
  return sessionView((await store.create(record, recordOwner(call))).task);
}

/** The caller's session record, or `undefined`. */
export const loadSession = (store: TaskStore, call: CallContext, id: string): Promise<StoredTask | undefined> =>
  store.get(id, recordOwner(call));

export const sessionEnded = (record: StoredTask): boolean => isTerminal(record.task.status.state);

/** Marks the session ended (idempotent); the record as it is afterwards. */
export async function endSession(store: TaskStore, call: CallContext, record: StoredTask): Promise<StoredTask> {
  let current = record;
  for (let attempt = 0; attempt < 50 && !sessionEnded(current); attempt++) {
    try {
      await store.append(current.task.id, current.version, {
        kind: 'status',
        status: { state: 'TASK_STATE_COMPLETED', timestamp: new Date().toISOString() },
      });
    } catch (error) {
      if (!(error instanceof ConcurrentModificationError)) throw error;
    }
    current = (await loadSession(store, call, record.task.id)) ?? current;
  }
  return current;
}

export function sessionView(task: Task): SessionView {
  const own = isObject(task.metadata?.[KEY]) ? (task.metadata[KEY] as Record<string, unknown>) : {};
  const createdAt = typeof own.created_at === 'string' ? own.created_at : (task.status.timestamp ?? '');
  const metadata = isObject(own.metadata) ? own.metadata : undefined;
  return {
    id: task.id,
    created_at: createdAt,
    updated_at: task.status.timestamp ?? createdAt,
    status: isTerminal(task.status.state) ? 'completed' : 'active',
    ...(metadata && { metadata }),
  };
}
