import { Deadline } from './deadline.js';
import type { CallOptions, StreamOptions, TransportOptions } from './options.js';

// Defaults that stop a broken or hostile agent from holding a call forever or filling the memory.
export const DEFAULT_TIMEOUT_MS = 30_000;
/** Four of core's keep-alive comments (every 15 s), so a live but quiet stream is not taken for a dead one. */
export const DEFAULT_IDLE_TIMEOUT_MS = 60_000;
export const DEFAULT_MAX_BODY_BYTES = 8 * 1024 * 1024;
export const DEFAULT_MAX_EVENT_BYTES = 1024 * 1024;

export const maxBodyBytes = (transport: TransportOptions): number => transport.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
export const maxEventBytes = (transport: TransportOptions): number =>
  transport.maxEventBytes ?? DEFAULT_MAX_EVENT_BYTES;

/** A unary call's deadline: one limit for the whole answer. */
export const callDeadline = (transport: TransportOptions, options: CallOptions, what: string): Deadline =>
  new Deadline(options.timeoutMs ?? transport.timeoutMs ?? DEFAULT_TIMEOUT_MS, true, options.signal, what);

/** A stream's deadline: a limit on each silence, to the response headers and between reads. */
export const streamDeadline = (transport: TransportOptions, options: StreamOptions, what: string): Deadline =>
  new Deadline(
    options.idleTimeoutMs ?? transport.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS,
    false,
    options.signal,
    what,
  );
