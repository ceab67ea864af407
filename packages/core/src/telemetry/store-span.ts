import { ATTR } from './attributes.js';
import { loadOpenTelemetry } from './otel-api.js';
import { secondsSince, telemetry } from './telemetry.js';

type AsyncMethod = (...args: unknown[]) => Promise<unknown>;

/**
 * Traces a store's calls: each named method becomes a client span (`TaskStore.get`, with `db.system.name`,
 * `db.operation.name` and the task id) and records `a2a.store.operation.duration`. Without a registered SDK each call
 * costs one check. For stores of other packages (`@a2a/postgres` calls it in its constructor).
 */
export function instrumentStore<T extends object>(store: T, system: string, methods: readonly (keyof T & string)[]): T {
  void loadOpenTelemetry();
  const target = store as unknown as Record<string, AsyncMethod>;
  for (const name of methods) {
    const original = target[name];
    if (typeof original !== 'function') continue;
    target[name] = function traced(this: unknown, ...args: unknown[]) {
      const tel = telemetry();
      if (!tel) return original.apply(this, args);
      const attributes: Record<string, string> = { [ATTR.dbSystem]: system, [ATTR.dbOperation]: name };
      const start = performance.now();
      const span = tel.tracer?.startSpan(`TaskStore.${name}`, {
        kind: tel.api.SpanKind.CLIENT,
        attributes: typeof args[0] === 'string' ? { ...attributes, [ATTR.taskId]: args[0] } : attributes,
      });
      const done = (error?: unknown) => {
        const outcome = error === undefined ? 'success' : 'error';
        tel.metrics?.storeDuration.record(secondsSince(start), { ...attributes, [ATTR.outcome]: outcome });
        if (!span) return;
        if (error !== undefined) {
          span.setAttribute(ATTR.errorType, (error as Error)?.name ?? 'Error');
          span.setStatus({ code: tel.api.SpanStatusCode.ERROR, message: String((error as Error)?.message ?? error) });
        }
        span.end();
      };
      const run = () => original.apply(this, args);
      const result = span ? tel.api.context.with(tel.api.trace.setSpan(tel.api.context.active(), span), run) : run();
      return result.then(
        (value) => {
          done();
          return value;
        },
        (error: unknown) => {
          done(error);
          throw error;
        },
      );
    };
  }
  return store;
}
