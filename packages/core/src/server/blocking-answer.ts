import { taskNotFound } from '../errors.js';
import type { SendMessageRequest } from '../schemas/requests.js';
import type { SendMessageResponse } from '../schemas/task.js';
import type { TaskStore } from '../store/task-store.js';
import { isInterrupted, isTerminal, viewTask } from '../task-state.js';
import type { CallContext } from './agent-executor.js';
import { endsTurn } from './call-stream.js';
import type { Execution, TurnEnd, TurnWaiter } from './execution.js';
import { TaskSubscription } from './task-subscription.js';

/**
 * A blocking SendMessage waiting for its new task's turn: the execution tells it when the turn is over and it settles
 * the call's answer. One promise per call, instead of the turn's own promise, its resolver closure and a `then` with
 * its closure and context (~0.3 KB per SendMessage, issue 39, docs/performance.md "Bytes per SendMessage,
 * twenty-second session").
 */
export class BlockingAnswer implements TurnWaiter {
  readonly answer: Promise<SendMessageResponse>;
  private settle!: (answer: SendMessageResponse | Promise<SendMessageResponse>) => void;

  constructor(
    private readonly store: TaskStore,
    private readonly request: SendMessageRequest,
    private readonly call: CallContext,
  ) {
    // The promise's executor a shared function, not a closure and a context per call.
    BlockingAnswer.making = this;
    this.answer = new Promise(BlockingAnswer.keepSettle);
  }

  /** The answer under construction, for {@link keepSettle} (set just before its `new Promise`). */
  private static making: BlockingAnswer | undefined;

  private static keepSettle(resolve: (answer: SendMessageResponse | Promise<SendMessageResponse>) => void): void {
    (BlockingAnswer.making as BlockingAnswer).settle = resolve;
    BlockingAnswer.making = undefined;
  }

  turnOver(execution: Execution, end: TurnEnd): void {
    const { store, request } = this;
    // The turn ended with this execution's own write: the in-memory store holds that version (no read).
    const stored = end === 'paused' ? store.peek?.(execution.taskId, execution.storedVersion) : undefined;
    this.settle(
      stored
        ? { task: viewTask(stored.task, { historyLength: request.configuration?.historyLength }) }
        : answerLater(store, execution, end, request, this.call),
    );
  }
}

/** A blocking SendMessage's task after its turn ended, read from the store (a cancel is waited for first). */
export async function answerLater(
  store: TaskStore,
  execution: Execution,
  end: TurnEnd,
  request: SendMessageRequest,
  call: CallContext,
): Promise<SendMessageResponse> {
  if (end === 'aborted') await waitForCancel(store, execution, call);
  // The turn ended with this execution's own write: a remote store may still hold that version (no read).
  const stored = await store.get(execution.taskId);
  if (!stored) throw taskNotFound(execution.taskId);
  return { task: viewTask(stored.task, { historyLength: request.configuration?.historyLength }) };
}

/**
 * A canceled execution's turn ends with the canceler's CANCELED event (written here or on another instance, after
 * the abort), or any other event that ends the turn, or when the client goes away.
 */
async function waitForCancel(store: TaskStore, execution: Execution, call: CallContext): Promise<void> {
  const subscription = new TaskSubscription(store, execution.taskId, execution.storedVersion, call);
  try {
    // Subscribed first, so an event written between this read and the loop is not missed.
    const now = await store.get(execution.taskId);
    const state = now?.task.status.state;
    if (!state || isTerminal(state) || isInterrupted(state)) return;
    for (;;) {
      const next = await subscription.next();
      if (next.done || endsTurn(next.value)) return;
    }
  } finally {
    subscription.close();
  }
}
