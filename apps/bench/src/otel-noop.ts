// `--otel noop`: the OpenTelemetry SDK registered as an app would (tracer and meter providers, AsyncLocalStorage
// context, W3C propagation) with exporters that drop everything, so the bench measures what the A2A instrumentation
// and the SDK's span/metric processing cost, not an exporter's I/O.

import { useOpenTelemetry } from '@a2a/core';
import * as api from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { ExportResultCode, W3CTraceContextPropagator } from '@opentelemetry/core';
import { AggregationTemporality, MeterProvider, PeriodicExportingMetricReader } from '@opentelemetry/sdk-metrics';
import { BasicTracerProvider, BatchSpanProcessor, type SpanExporter } from '@opentelemetry/sdk-trace-base';

const dropSpans: SpanExporter = {
  export: (_spans, done) => done({ code: ExportResultCode.SUCCESS }),
  shutdown: () => Promise.resolve(),
};

export function startNoopOpenTelemetry(): void {
  api.context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  api.propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  api.trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new BatchSpanProcessor(dropSpans)] }));
  const reader = new PeriodicExportingMetricReader({
    exporter: {
      export: (_metrics, done) => done({ code: ExportResultCode.SUCCESS }),
      shutdown: () => Promise.resolve(),
      forceFlush: () => Promise.resolve(),
      selectAggregationTemporality: () => AggregationTemporality.CUMULATIVE,
    },
    exportIntervalMillis: 10_000,
  });
  api.metrics.setGlobalMeterProvider(new MeterProvider({ readers: [reader] }));
  useOpenTelemetry(api);
}
