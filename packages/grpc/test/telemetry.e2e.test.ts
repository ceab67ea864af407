import { eventually } from '@a2a/adapter-testsuite';
import { useOpenTelemetry } from '@a2a/core';
import * as api from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { collect, type Harness, startHarness, userMessage } from './harness.js';

// The SDK as an app registers it, with an in-memory exporter.
const spans = new InMemorySpanExporter();
const contextManager = new AsyncLocalStorageContextManager();
beforeAll(() => {
  api.context.setGlobalContextManager(contextManager.enable());
  api.propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  api.trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(spans)] }));
  useOpenTelemetry(api);
});
afterAll(() => {
  api.trace.disable();
  api.context.disable();
  api.propagation.disable();
});

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
  spans.reset();
});

const serverSpans = (name: string) =>
  spans.getFinishedSpans().filter((s) => s.kind === api.SpanKind.SERVER && s.name.includes(name));
/** The first span `find` returns, polled every 20 ms for up to 3 s. */
const spanSoon = <T>(find: () => T | undefined) => eventually(find, 3000, { every: 20 }) as Promise<T>;

describe('gRPC calls under OpenTelemetry', () => {
  it('a unary call is a server span with the gRPC binding and the task id, continuing the caller trace', async () => {
    h = await startHarness();
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    const sent = await h.client.unary('SendMessage', userMessage('ask'), {
      traceparent: `00-${traceId}-00f067aa0ba902b7-01`,
    });
    const taskId = (sent.task as { id: string }).id;
    const span = await spanSoon(() => serverSpans('SendMessage')[0]);
    expect(span.name).toBe('A2AService/SendMessage'); // the same name on every binding
    expect(span.attributes).toMatchObject({ 'a2a.binding': 'GRPC', 'a2a.task.id': taskId });
    expect(span.spanContext().traceId).toBe(traceId);
    // The executor's span nests under it.
    const executor = spans.getFinishedSpans().find((s) => s.name === 'a2a.execute');
    expect(executor?.spanContext().traceId).toBe(traceId);
  });

  it('a refused call records its A2A error; a stream ends its span when the stream ends', async () => {
    h = await startHarness();
    await expect(h.client.unary('GetTask', { id: 'missing' })).rejects.toMatchObject({ code: 5 });
    const failed = await spanSoon(() => serverSpans('GetTask')[0]);
    expect(failed.attributes).toMatchObject({ 'a2a.binding': 'GRPC', 'error.type': 'TaskNotFound' });

    const { events, error } = await collect(h.client.stream('SendStreamingMessage', userMessage('many 3')));
    expect(error).toBeUndefined();
    const streamed = await spanSoon(() => serverSpans('SendStreamingMessage')[0]);
    expect(streamed.events.length).toBeGreaterThanOrEqual(events.length);
  });
});
