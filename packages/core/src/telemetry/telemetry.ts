import type { Counter, Histogram, Meter, Tracer, TracerProvider, UpDownCounter } from '@opentelemetry/api';
import { type OtelApi, otelApi } from './otel-api.js';
import { SCOPE, SCOPE_VERSION } from './scope.js';

/** The A2A instruments (names and units in the README, "Observability"). */
export interface A2AInstruments {
  requests: Counter;
  requestDuration: Histogram;
  tasksCreated: Counter;
  tasksFinished: Counter;
  taskDuration: Histogram;
  openStreams: UpDownCounter;
  streamEvents: Counter;
  pushDeliveries: Counter;
  pushFailures: Counter;
  pushAttemptDuration: Histogram;
  storeDuration: Histogram;
}

/** What is on right now: a tracer when a tracer provider is registered, instruments when a meter provider is. */
export interface Telemetry {
  api: OtelApi;
  tracer: Tracer | undefined;
  metrics: A2AInstruments | undefined;
}

let cache: { api: OtelApi; traces: unknown; meter: Meter; value: Telemetry | undefined } | undefined;
let noopTracerProvider: TracerProvider | undefined;

/**
 * The current telemetry, or `undefined` when nothing is registered (the API absent, or neither an SDK's tracer nor
 * meter provider set): then no span, attribute or instrument is made. Checked per request (a few property reads), so
 * an SDK started after the handler is picked up.
 */
export function telemetry(): Telemetry | undefined {
  const api = otelApi();
  if (!api) return undefined;
  const provider = api.trace.getTracerProvider();
  const traces = provider instanceof api.ProxyTracerProvider ? provider.getDelegate() : provider;
  const meter = api.metrics.getMeterProvider().getMeter(SCOPE, SCOPE_VERSION);
  if (cache && cache.api === api && cache.traces === traces && cache.meter === meter) return cache.value;
  noopTracerProvider ??= new api.ProxyTracerProvider().getDelegate();
  const tracing = traces !== noopTracerProvider;
  const metering = meter !== api.createNoopMeter();
  const value =
    tracing || metering
      ? {
          api,
          tracer: tracing ? api.trace.getTracer(SCOPE, SCOPE_VERSION) : undefined,
          metrics: metering ? instruments(meter) : undefined,
        }
      : undefined;
  cache = { api, traces, meter, value };
  return value;
}

function instruments(meter: Meter): A2AInstruments {
  const seconds = (name: string, description: string) => meter.createHistogram(name, { unit: 's', description });
  return {
    requests: meter.createCounter('a2a.server.requests', {
      unit: '{request}',
      description: 'A2A operations served, by operation, binding and outcome',
    }),
    requestDuration: seconds('a2a.server.request.duration', 'Duration of A2A operations (streams: until they end)'),
    tasksCreated: meter.createCounter('a2a.tasks.created', { unit: '{task}', description: 'Tasks created' }),
    tasksFinished: meter.createCounter('a2a.tasks.finished', {
      unit: '{task}',
      description: 'Tasks that reached a final state, by state',
    }),
    taskDuration: seconds('a2a.task.duration', 'From task creation to its final state, by state'),
    openStreams: meter.createUpDownCounter('a2a.server.open_streams', {
      unit: '{stream}',
      description: 'SSE streams open now',
    }),
    streamEvents: meter.createCounter('a2a.server.stream.events', {
      unit: '{event}',
      description: 'Events sent on SSE streams',
    }),
    pushDeliveries: meter.createCounter('a2a.push.deliveries', {
      unit: '{notification}',
      description: 'Push notifications delivered',
    }),
    pushFailures: meter.createCounter('a2a.push.failures', {
      unit: '{notification}',
      description: 'Push notifications given up on after their retries',
    }),
    pushAttemptDuration: seconds('a2a.push.attempt.duration', 'Duration of each webhook POST attempt'),
    storeDuration: seconds('a2a.store.operation.duration', 'Duration of task store calls'),
  };
}

/** Seconds since a `performance.now()` reading. */
export const secondsSince = (start: number): number => (performance.now() - start) / 1000;

/** `traceparent` (and the other propagated headers) of the active context, set on outgoing headers. */
export function injectTraceHeaders(api: OtelApi, headers: Headers): void {
  api.propagation.inject(api.context.active(), headers, {
    set: (carrier, key, value) => carrier.set(key, value),
  });
}
