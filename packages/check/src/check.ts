import type { CheckContext } from './context.js';

/** RFC 2119 level of the sentence a check enforces: only a failed MUST makes the run fail. */
export type Level = 'MUST' | 'SHOULD' | 'MAY';

export type Area = 'card' | 'jsonrpc' | 'http+json' | 'grpc' | 'security' | 'capabilities' | 'send' | 'hostile';

export const AREAS: readonly Area[] = [
  'card',
  'jsonrpc',
  'http+json',
  'grpc',
  'security',
  'capabilities',
  'send',
  'hostile',
];

/** What a check found: `skip` when it does not apply (with why), `fail` with what a developer should fix. */
export type Verdict = { status: 'pass'; detail?: string } | { status: 'fail' | 'skip'; detail: string };

export interface Check {
  /** Stable id, e.g. `jsonrpc.task-not-found.get`: used in reports, JUnit and `--only`. */
  id: string;
  area: Area;
  level: Level;
  /** The v1.0.1 section the check enforces, e.g. `§3.1.3 GetTask`. */
  spec: string;
  /** One line saying what is checked. */
  title: string;
  run(ctx: CheckContext): Promise<Verdict>;
}

export const pass = (detail?: string): Verdict =>
  detail === undefined ? { status: 'pass' } : { status: 'pass', detail };
export const fail = (detail: string): Verdict => ({ status: 'fail', detail });
export const skip = (detail: string): Verdict => ({ status: 'skip', detail });
