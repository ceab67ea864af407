import { listen } from '@a2a/adapter-testsuite';
import { createA2AHandler, newTask, useOpenTelemetry } from '@a2a/core';
import { createNodeHandler } from '@a2a/core/node';
import * as api from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { MeterProvider, MetricReader } from '@opentelemetry/sdk-metrics';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PostgresTaskStore } from '../src/index.js';
import { createTestDatabase, hasDatabase } from './db.js';

const spans = new InMemorySpanExporter();
class TestReader extends MetricReader {
  protected override onForceFlush = () => Promise.resolve();
  protected override onShutdown = () => Promise.resolve();
}
const reader = new TestReader();

describe.runIf(hasDatabase)('PostgresTaskStore observability', () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  beforeAll(async () => {
    api.context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
    api.trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(spans)] }));
    api.metrics.setGlobalMeterProvider(new MeterProvider({ readers: [reader] }));
    useOpenTelemetry(api);
    db = await createTestDatabase();
  });
  afterAll(async () => {
    api.trace.disable();
    api.metrics.disable();
    api.context.disable();
    await db?.drop();
  });

  it('store calls are client spans under the active span, with their latency recorded', async () => {
    const store = await PostgresTaskStore.connect({ connection: db.url, onError: () => {} });
    try {
      const task = newTask('t-otel', 'ctx', { messageId: 'm', role: 'ROLE_USER', parts: [{ text: 'hi' }] }, '');
      await api.trace.getTracer('test').startActiveSpan('request', async (parent) => {
        await store.create(task, 'owner');
        await store.get('t-otel');
        parent.end();
      });
      const request = spans.getFinishedSpans().find((s) => s.name === 'request');
      const calls = spans.getFinishedSpans().filter((s) => s.name.startsWith('TaskStore.'));
      expect(calls.map((s) => s.name)).toEqual(['TaskStore.create', 'TaskStore.get']);
      for (const call of calls) {
        expect(call.kind).toBe(api.SpanKind.CLIENT);
        expect(call.parentSpanContext?.spanId).toBe(request?.spanContext().spanId);
        expect(call.attributes).toMatchObject({ 'db.system.name': 'postgresql' });
      }
      expect(calls[1]?.attributes).toMatchObject({ 'db.operation.name': 'get', 'a2a.task.id': 't-otel' });

      const { resourceMetrics } = await reader.collect();
      const metric = resourceMetrics.scopeMetrics
        .flatMap((s) => s.metrics)
        .find((m) => m.descriptor.name === 'a2a.store.operation.duration');
      const gets = metric?.dataPoints.find((p) => p.attributes['db.operation.name'] === 'get');
      expect((gets?.value as { count: number } | undefined)?.count).toBe(1);
    } finally {
      await store.close();
    }
  });

  it('the readiness route: 200 while PostgreSQL answers, 503 once it cannot be reached', async () => {
    const store = await PostgresTaskStore.connect({ connection: db.url, onError: () => {} });
    const a2a = createA2AHandler({
      agentCard: {
        name: 'a',
        description: 'a',
        version: '1',
        capabilities: {},
        skills: [{ id: 's', name: 's', description: 's', tags: ['t'] }],
      },
      executor: { execute: async () => {} },
      taskStore: store,
      health: true,
      logger: { error: () => {}, warn: () => {} },
    });
    const listener = createNodeHandler(a2a);
    const server = await listen((req, res) => void listener(req, res));
    const url = `${server.url}/healthz`;
    try {
      await expect(store.ping()).resolves.toBeUndefined();
      expect((await fetch(url)).status).toBe(200);
      await store.pool.end(); // the database is gone for this instance
      await expect(store.ping()).rejects.toThrow();
      const down = await fetch(url);
      expect(down.status).toBe(503);
      expect(await down.json()).toEqual({ status: 'unavailable', reason: 'task store unreachable' });
    } finally {
      await server.close();
      await store.close();
    }
  });
});
