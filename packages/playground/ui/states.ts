import { h } from './dom.js';

// Task states as people read them. The wire value (TASK_STATE_COMPLETED) stays on the badge as data-state and title.

const LABELS: Record<string, string> = {
  TASK_STATE_SUBMITTED: 'Submitted',
  TASK_STATE_WORKING: 'Working',
  TASK_STATE_INPUT_REQUIRED: 'Input required',
  TASK_STATE_AUTH_REQUIRED: 'Auth required',
  TASK_STATE_COMPLETED: 'Completed',
  TASK_STATE_CANCELED: 'Canceled',
  TASK_STATE_FAILED: 'Failed',
  TASK_STATE_REJECTED: 'Rejected',
};

/** "Input required" for TASK_STATE_INPUT_REQUIRED; an unknown state as the agent sent it. */
export const stateLabel = (state: string): string => LABELS[state] ?? state;

/** The colour family of a state's badge. */
function tone(state: string): string {
  switch (state) {
    case 'TASK_STATE_COMPLETED':
      return 'good';
    case 'TASK_STATE_INPUT_REQUIRED':
    case 'TASK_STATE_AUTH_REQUIRED':
      return 'ask';
    case 'TASK_STATE_FAILED':
    case 'TASK_STATE_REJECTED':
      return 'bad';
    case 'TASK_STATE_CANCELED':
      return 'off';
    default:
      return 'busy';
  }
}

export const stateBadge = (state: string): HTMLSpanElement =>
  h('span', { class: `badge tone-${tone(state)}`, 'data-state': state, title: state }, stateLabel(state));
