import { createServer, type IncomingHttpHeaders } from 'node:http';
import { listen } from '@a2a/adapter-testsuite';
import * as api from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { type DataPoint, MeterProvider, MetricReader, type ResourceMetrics } from '@opentelemetry/sdk-metrics';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type A2ALogger, type AgentContext, createPushSender, useOpenTelemetry } from '../src/index.js';
import { card, sseReader, startServer } from './helpers.js';

const readSse = async (response: Response) => (await sseReader(response).all()).map((e) => JSON.parse(e.data));

// The SDK as an app registers it, with in-memory exporters.
const spans = new InMemorySpanExporter();
class TestReader extends MetricReader {
  protected override onForceFlush = () => Promise.resolve();
  protected override onShutdown = () => Promise.resolve();
}
const reader = new TestReader();
const contextManager = new AsyncLocalStorageContextManager();
beforeAll(() => {
  api.context.setGlobalContextManager(contextManager.enable());
  api.propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  api.trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(spans)] }));
  api.metrics.setGlobalMeterProvider(new MeterProvider({ readers: [reader] }));
  useOpenTelemetry(api);
});
afterAll(() => {
  api.trace.disable();
  api.metrics.disable();
  api.context.disable();
  api.propagation.disable();
});

const closers: (() => Promise<void> | void)[] = [];
beforeEach(() => spans.reset());
afterEach(async () => {
  for (const c of closers.splice(0).reverse()) await c();
});

const userMessage = (text: string, extra: Record<string, unknown> = {}) => ({
  message: { messageId: `m-${Math.random()}`, role: 'ROLE_USER', parts: [{ text }], ...extra },
});

/** An agent that does its own traced work (as an LLM client would), streams an artifact and completes. */
const tracedAgent = {
  async execute(ctx: AgentContext) {
    await ctx.working();
    await api.trace.getTracer('agent').startActiveSpan('agent.llm', async (span) => {
      await ctx.artifact({ text: 'answer' });
      span.end();
    });
    await ctx.complete('done');
  },
};

async function webhook() {
  const received: IncomingHttpHeaders[] = [];
  const server = createServer((req, res) => {
    received.push(req.headers);
    req.resume();
    req.on('end', () => res.end());
  });
  const { url, close } = await listen(server);
  closers.push(close);
  return { url: `${url}/hook`, received };
}

/** Without push notifications (no sender in these tests: no setup warning). */
const plainCard = { ...card, capabilities: { streaming: true } };

const byName = (name: string) => spans.getFinishedSpans().filter((s) => s.name === name);
const one = (name: string): ReadableSpan => {
  const found = byName(name);
  expect(found, name).toHaveLength(1);
  return found[0] as ReadableSpan;
};
const parentOf = (span: ReadableSpan) => span.parentSpanContext?.spanId;

describe('traces', () => {
  it('a streamed task: server span → executor span (the agent’s own spans inside) → push client spans with traceparent', async () => {
    const hook = await webhook();
    const sender = createPushSender({ ssrf: false, retry: { maxAttempts: 1 } });
    closers.push(() => sender.close());
    const server = await startServer({ agentCard: card, executor: tracedAgent, pushNotifications: sender });
    closers.push(server.close);

    const response = await fetch(`${server.url}/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'SendStreamingMessage',
        params: {
          ...userMessage('hi'),
          configuration: { taskPushNotificationConfig: { url: hook.url, token: 'sekrit' } },
        },
      }),
    });
    const events = await readSse(response);
    const taskId = (events[0] as { result: { task: { id: string } } }).result.task.id;
    await sender.idle();

    const server_ = one('A2AService/SendStreamingMessage');
    expect(server_.kind).toBe(api.SpanKind.SERVER);
    // The scope names the package and its version (it was undefined).
    const scope = (server_ as unknown as { instrumentationScope?: { name: string; version?: string } })
      .instrumentationScope;
    expect(scope).toMatchObject({ name: '@a2a/core', version: expect.stringMatching(/^\d+\.\d+\.\d+/) });
    expect(server_.attributes).toMatchObject({
      'rpc.system': 'jsonrpc',
      'rpc.service': 'A2AService',
      'rpc.method': 'SendStreamingMessage',
      'a2a.operation': 'SendStreamingMessage',
      'a2a.binding': 'JSONRPC',
      'a2a.protocol.version': '1.0',
      'a2a.task.id': taskId,
      'http.request.method': 'POST',
      'http.response.status_code': 200,
      'server.address': '127.0.0.1',
    });
    expect(server_.events.map((e) => e.attributes?.['a2a.event.kind'])).toEqual(
      events.map((e) => Object.keys((e as { result: object }).result)[0]),
    );

    const executor = one('a2a.execute');
    expect(parentOf(executor)).toBe(server_.spanContext().spanId);
    expect(executor.attributes['a2a.task.id']).toBe(taskId);
    expect(executor.events.map((e) => e.name)).toEqual(['a2a.task.status', 'a2a.task.artifact', 'a2a.task.status']);
    const llm = one('agent.llm');
    expect(parentOf(llm)).toBe(executor.spanContext().spanId);

    const posts = byName('POST');
    expect(posts.length).toBeGreaterThanOrEqual(3); // working, artifact, completed
    expect(hook.received).toHaveLength(posts.length);
    for (const post of posts) {
      expect(post.kind).toBe(api.SpanKind.CLIENT);
      expect(post.spanContext().traceId).toBe(server_.spanContext().traceId);
      expect(parentOf(post)).toBe(executor.spanContext().spanId);
      expect(post.attributes).toMatchObject({
        'http.request.method': 'POST',
        'http.response.status_code': 200,
        'server.address': '127.0.0.1',
        'a2a.task.id': taskId,
      });
      // Never the token (nor the webhook's path or query).
      expect(JSON.stringify(post.attributes)).not.toMatch(/sekrit|\/hook/);
    }
    // The webhook continues the trace: each notification carries its own attempt's span as parent.
    const parents = hook.received.map((h) => String(h.traceparent));
    expect(parents.sort()).toEqual(
      posts.map((p) => `00-${p.spanContext().traceId}-${p.spanContext().spanId}-01`).sort(),
    );
  });

  it('continues the caller’s trace from an incoming traceparent (JSON-RPC and REST)', async () => {
    const server = await startServer({ agentCard: plainCard, executor: tracedAgent });
    closers.push(server.close);
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    const parentId = '00f067aa0ba902b7';
    const traceparent = `00-${traceId}-${parentId}-01`;
    const sent = await server.rpc('SendMessage', userMessage('hi'), { traceparent });
    const taskId = sent.body.result.task.id;
    await server.rest('GET', `/tasks/${taskId}`, undefined, { traceparent });

    const send = one('A2AService/SendMessage');
    expect(send.spanContext().traceId).toBe(traceId);
    expect(parentOf(send)).toBe(parentId);
    expect(send.attributes['a2a.task.id']).toBe(taskId);
    expect(parentOf(one('a2a.execute'))).toBe(send.spanContext().spanId);
    const get = one('A2AService/GetTask');
    expect(get.spanContext().traceId).toBe(traceId);
    expect(get.attributes).toMatchObject({ 'a2a.binding': 'HTTP+JSON', 'a2a.task.id': taskId });
  });

  it('error attributes: the A2A error code and type, the HTTP status; the span is not failed for a client error', async () => {
    const server = await startServer({ agentCard: plainCard, executor: tracedAgent });
    closers.push(server.close);
    await server.rpc('GetTask', { id: 'nope' });
    await server.rest('GET', '/tasks/nope');
    await server.rpc('GetTask', { id: 42 });

    const [rpc, rest] = byName('A2AService/GetTask');
    expect(rpc?.attributes).toMatchObject({
      'error.type': 'TaskNotFound',
      'a2a.error.code': -32001,
      'rpc.jsonrpc.error_code': -32001,
      'a2a.task.id': 'nope',
    });
    expect(rpc?.status.code).toBe(api.SpanStatusCode.UNSET);
    expect(rest?.attributes).toMatchObject({ 'error.type': 'TaskNotFound', 'http.response.status_code': 404 });
    // Refused before the operation ran (bad params): still its span, named after the method.
    const invalid = byName('A2AService/GetTask')[2];
    expect(invalid?.attributes).toMatchObject({ 'error.type': 'InvalidParams', 'a2a.error.code': -32602 });
  });

  it('an agent that throws: its span is failed with the exception; the log line has the task and trace ids', async () => {
    const lines: { level: string; fields: Record<string, unknown>; message: string | undefined }[] = [];
    const logger: A2ALogger = {
      error: (fields, message) => lines.push({ level: 'error', fields, message }),
      warn: (fields, message) => lines.push({ level: 'warn', fields, message }),
    };
    const server = await startServer({
      agentCard: plainCard,
      executor: {
        async execute() {
          throw new Error('model unavailable');
        },
      },
      logger,
      onError: undefined,
    });
    closers.push(server.close);
    const sent = await server.rpc('SendMessage', userMessage('hi'));
    expect(sent.body.result.task.status.state).toBe('TASK_STATE_FAILED');
    const executor = one('a2a.execute');
    expect(executor.status).toMatchObject({ code: api.SpanStatusCode.ERROR, message: 'model unavailable' });
    expect(executor.events.some((e) => e.name === 'exception')).toBe(true);
    expect(lines).toEqual([
      {
        level: 'error',
        message: 'model unavailable',
        fields: expect.objectContaining({
          err: expect.any(Error),
          taskId: sent.body.result.task.id,
          traceId: executor.spanContext().traceId,
        }),
      },
    ]);
  });

  it('legacy wires get the same span, named after the v1.0 operation', async () => {
    const server = await startServer({ agentCard: plainCard, executor: tracedAgent });
    closers.push(server.close);
    await server.rpc('message/send', {
      message: { kind: 'message', messageId: 'm1', role: 'user', parts: [{ kind: 'text', text: 'hi' }] },
    });
    expect(one('A2AService/SendMessage').attributes).toMatchObject({
      'a2a.method': 'message/send',
      'a2a.protocol.version': '0.3',
    });
  });
});

describe('metrics', () => {
  const points = async (name: string): Promise<DataPoint<unknown>[]> => {
    const { resourceMetrics } = await reader.collect();
    return findMetric(resourceMetrics, name);
  };
  const sum = async (name: string, attributes: Record<string, unknown> = {}) =>
    (await points(name))
      .filter((p) => Object.entries(attributes).every(([k, v]) => p.attributes[k] === v))
      .reduce((total, p) => total + (typeof p.value === 'number' ? p.value : (p.value as { count: number }).count), 0);

  it('count what a known workload did', async () => {
    const hook = await webhook();
    const sender = createPushSender({ ssrf: false, retry: { maxAttempts: 1 } });
    closers.push(() => sender.close());
    const server = await startServer({ agentCard: card, executor: tracedAgent, pushNotifications: sender });
    closers.push(server.close);
    const before = {
      sent: await sum('a2a.server.requests', { 'a2a.operation': 'SendMessage', 'a2a.outcome': 'success' }),
      notFound: await sum('a2a.server.requests', { 'a2a.operation': 'GetTask', 'error.type': 'TaskNotFound' }),
      created: await sum('a2a.tasks.created'),
      completed: await sum('a2a.tasks.finished', { 'a2a.task.state': 'TASK_STATE_COMPLETED' }),
      durations: await sum('a2a.task.duration', { 'a2a.task.state': 'TASK_STATE_COMPLETED' }),
      streamed: await sum('a2a.server.stream.events', { 'a2a.operation': 'SendStreamingMessage' }),
      delivered: await sum('a2a.push.deliveries'),
      attempts: await sum('a2a.push.attempt.duration'),
      requestDurations: await sum('a2a.server.request.duration', { 'a2a.operation': 'SendMessage' }),
    };

    for (let i = 0; i < 3; i++) await server.rpc('SendMessage', userMessage(`m${i}`));
    await server.rpc('GetTask', { id: 'nope' });
    const streamed = await readSse(
      await fetch(`${server.url}/`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'SendStreamingMessage',
          params: { ...userMessage('s'), configuration: { taskPushNotificationConfig: { url: hook.url } } },
        }),
      }),
    );
    await sender.idle();

    expect(await sum('a2a.server.requests', { 'a2a.operation': 'SendMessage', 'a2a.outcome': 'success' })).toBe(
      before.sent + 3,
    );
    expect(await sum('a2a.server.request.duration', { 'a2a.operation': 'SendMessage' })).toBe(
      before.requestDurations + 3,
    );
    expect(
      await sum('a2a.server.requests', {
        'a2a.operation': 'GetTask',
        'a2a.outcome': 'error',
        'error.type': 'TaskNotFound',
      }),
    ).toBe(before.notFound + 1);
    expect(await sum('a2a.tasks.created')).toBe(before.created + 4);
    expect(await sum('a2a.tasks.finished', { 'a2a.task.state': 'TASK_STATE_COMPLETED' })).toBe(before.completed + 4);
    expect(await sum('a2a.task.duration', { 'a2a.task.state': 'TASK_STATE_COMPLETED' })).toBe(before.durations + 4);
    expect(await sum('a2a.server.stream.events', { 'a2a.operation': 'SendStreamingMessage' })).toBe(
      before.streamed + streamed.length,
    );
    expect(await sum('a2a.server.open_streams')).toBe(0);
    expect(await sum('a2a.push.deliveries')).toBe(before.delivered + hook.received.length);
    expect(await sum('a2a.push.attempt.duration')).toBe(before.attempts + hook.received.length);
    expect(await sum('a2a.push.failures')).toBe(0);
  });
});

function findMetric(resourceMetrics: ResourceMetrics, name: string): DataPoint<unknown>[] {
  for (const scope of resourceMetrics.scopeMetrics) {
    for (const metric of scope.metrics)
      if (metric.descriptor.name === name) return metric.dataPoints as DataPoint<unknown>[];
  }
  return [];
}
