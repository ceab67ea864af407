import { type AssertionFailure, check, isRecord } from './assertion-engine.js';

/**
 * `expect_stream` (ACTS §7) over the events of a stream. An event is seen as its StreamResponse payload with the
 * payload also under its kind (`task`, `message`, `status_update`, `artifact_update`; the camelCase wire names too),
 * so `{status_update: {...}}` and generic `{status: {...}}` both reach the status update.
 */

const KINDS: Record<string, string> = {
  task: 'task',
  message: 'message',
  statusUpdate: 'status_update',
  artifactUpdate: 'artifact_update',
};

export function eventView(event: Record<string, unknown>): Record<string, unknown> {
  for (const [wire, acts] of Object.entries(KINDS)) {
    const payload = event[wire];
    if (isRecord(payload)) return { ...payload, [acts]: payload, [wire]: payload };
  }
  return event;
}

const TERMINAL = new Set(['TASK_STATE_COMPLETED', 'TASK_STATE_FAILED', 'TASK_STATE_CANCELED', 'TASK_STATE_REJECTED']);

export function stateOf(event: Record<string, unknown>): string | undefined {
  const payload = event.task ?? event.statusUpdate;
  if (!isRecord(payload) || !isRecord(payload.status)) return undefined;
  return typeof payload.status.state === 'string' ? payload.status.state : undefined;
}

/**
 * `monotonic_state` (§7.1): no state after a terminal one (a repeat of the same terminal state, the final Task
 * snapshot a server may resend, is allowed) and nothing returns to SUBMITTED.
 */
export function checkMonotonic(events: Record<string, unknown>[]): AssertionFailure[] {
  let previous: string | undefined;
  for (const [i, event] of events.entries()) {
    const state = stateOf(event);
    if (!state) continue;
    if (previous && TERMINAL.has(previous) && state !== previous)
      return [
        {
          path: `events[${i}]`,
          message: `state ${state} after terminal ${previous}`,
          expected: previous,
          actual: state,
        },
      ];
    if (previous && state === 'TASK_STATE_SUBMITTED' && previous !== state)
      return [{ path: `events[${i}]`, message: `back to SUBMITTED after ${previous}`, actual: state }];
    previous = state;
  }
  return [];
}

const EVENT_META = new Set(['description', 'match', 'index']);

/** The assertion part of an event assertion (without description/match/index). */
const assertionOf = (eventAssertion: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(eventAssertion).filter(([k]) => !EVENT_META.has(k)));

export interface StreamExpectation {
  min_count?: number;
  max_count?: number;
  ordering?: string;
  events?: Record<string, unknown>[];
  final_event?: Record<string, unknown>;
  each_event?: Record<string, unknown>;
}

export function checkStream(events: Record<string, unknown>[], expect: StreamExpectation): AssertionFailure[] {
  const failures: AssertionFailure[] = [];
  const views = events.map(eventView);
  if (expect.min_count !== undefined && events.length < expect.min_count)
    failures.push({ path: 'events', message: `expected at least ${expect.min_count} events, got ${events.length}` });
  if (expect.max_count !== undefined && events.length > expect.max_count)
    failures.push({ path: 'events', message: `expected at most ${expect.max_count} events, got ${events.length}` });
  if (expect.ordering === 'monotonic_state') failures.push(...checkMonotonic(events));
  for (const [i, eventAssertion] of (expect.events ?? []).entries()) {
    const assertion = assertionOf(eventAssertion);
    const label = typeof eventAssertion.description === 'string' ? ` (${eventAssertion.description})` : '';
    if (eventAssertion.match === 'any_position') {
      if (!views.some((view) => check(view, assertion).length === 0))
        failures.push({ path: `events`, message: `no event matches event assertion ${i}${label}` });
      continue;
    }
    const index = typeof eventAssertion.index === 'number' ? eventAssertion.index : i;
    const view = views[index];
    if (!view) failures.push({ path: `events[${index}]`, message: `no event at position ${index}${label}` });
    else failures.push(...check(view, assertion, `events[${index}]`));
  }
  if (expect.each_event) {
    for (const [i, view] of views.entries())
      failures.push(...check(view, assertionOf(expect.each_event), `events[${i}]`));
  }
  if (expect.final_event) {
    const last = views.at(-1);
    if (!last) failures.push({ path: 'final_event', message: 'the stream had no events' });
    else failures.push(...check(last, assertionOf(expect.final_event), `events[${views.length - 1}]`));
  }
  return failures;
}
