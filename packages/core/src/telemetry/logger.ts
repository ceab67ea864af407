import { otelApi } from './otel-api.js';

/**
 * Where the A2A packages log: pino's shape (`logger.error({ err, taskId, traceId }, 'message')`), so a pino, bunyan
 * or winston-with-adapter logger is passed as is. Only `error` and `warn` are required.
 */
export interface A2ALogger {
  error(fields: Record<string, unknown>, message?: string): void;
  warn(fields: Record<string, unknown>, message?: string): void;
  info?(fields: Record<string, unknown>, message?: string): void;
  debug?(fields: Record<string, unknown>, message?: string): void;
}

/** What a log line is about: the task (when there is one); the trace id is added from the active span. */
export interface LogFields {
  taskId?: string | undefined;
  [key: string]: unknown;
}

/**
 * The default: errors and warnings on the console, one line each with the task and trace ids, and the error's stack
 * for internal errors; nothing below warn (a server that works says nothing).
 */
export const consoleLogger: A2ALogger = {
  error: (fields, message) => {
    const { err, ...rest } = fields;
    console.error(`[a2a] ${message ?? 'error'}${suffix(rest)}`, ...(err === undefined ? [] : [err]));
  },
  warn: (fields, message) => console.warn(`[a2a] ${message ?? 'warning'}${suffix(fields)}`),
};

const suffix = (fields: Record<string, unknown>): string => {
  const parts = Object.entries(fields)
    .filter(([, value]) => value !== undefined)
    .map(([key, value]) => `${key}=${typeof value === 'string' ? value : JSON.stringify(value)}`);
  return parts.length ? ` (${parts.join(' ')})` : '';
};

/** The fields with the active trace's id (when a span is active). */
export function withTrace(fields: LogFields): LogFields {
  const span = otelApi()?.trace.getActiveSpan();
  const context = span?.spanContext();
  if (!context || context.traceId === '00000000000000000000000000000000') return fields;
  return { ...fields, traceId: context.traceId, spanId: context.spanId };
}

/** The engine's log: the app's `onError`/`onWarning` hooks when given (they predate the logger), else the logger. */
export class A2ALog {
  constructor(
    readonly logger: A2ALogger = consoleLogger,
    private readonly onErrorHook?: ((error: unknown) => void) | undefined,
    private readonly onWarningHook?: ((message: string) => void) | undefined,
  ) {}

  /** An error that is not the client's fault. */
  error(error: unknown, fields: LogFields = {}, message?: string): void {
    if (this.onErrorHook) this.onErrorHook(error);
    else this.logger.error({ err: error, ...withTrace(fields) }, message ?? errorMessage(error));
  }

  warn(message: string, fields: LogFields = {}): void {
    if (this.onWarningHook) this.onWarningHook(message);
    else this.logger.warn(withTrace(fields), message);
  }

  info(message: string, fields: LogFields = {}): void {
    this.logger.info?.(withTrace(fields), message);
  }

  debug(message: string, fields: LogFields = {}): void {
    this.logger.debug?.(withTrace(fields), message);
  }
}

const errorMessage = (error: unknown): string => (error instanceof Error ? error.message : String(error));
