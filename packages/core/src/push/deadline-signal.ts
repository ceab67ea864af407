/** An abort signal for one bounded operation: aborted by its parent or when its deadline passes. */
export interface DeadlineSignal {
  readonly signal: AbortSignal;
  /** Whether the deadline (not the parent) aborted the signal. */
  readonly timedOut: boolean;
  /** Clears the timer and detaches from the parent; call once the operation settled. */
  dispose(): void;
}

/**
 * Aborts when `parent` aborts or after `ms`. The timer is held here, and the controller by the timer, until
 * `dispose()`. Not `AbortSignal.any([parent, AbortSignal.timeout(ms)])`: Node 20 lets a GC collect that timeout
 * signal (nodejs/node#57736), and the operation then never times out.
 */
export function deadlineSignal(parent: AbortSignal, ms: number): DeadlineSignal {
  const controller = new AbortController();
  let timedOut = false;
  const onParentAbort = () => controller.abort(parent.reason);
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort(new DOMException(`The operation timed out after ${ms} ms`, 'TimeoutError'));
  }, ms);
  if (parent.aborted) onParentAbort();
  else parent.addEventListener('abort', onParentAbort, { once: true });
  return {
    signal: controller.signal,
    get timedOut() {
      return timedOut;
    },
    dispose() {
      clearTimeout(timer);
      parent.removeEventListener('abort', onParentAbort);
    },
  };
}
