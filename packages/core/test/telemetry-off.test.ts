import * as api from '@opentelemetry/api';
import { afterEach, describe, expect, it } from 'vitest';
import { useOpenTelemetry } from '../src/index.js';
import { startRequestTelemetry } from '../src/telemetry/request-telemetry.js';
import { telemetry } from '../src/telemetry/telemetry.js';
import { card, startServer } from './helpers.js';

const closers: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of closers.splice(0).reverse()) await c();
});

describe('OpenTelemetry API present, no SDK registered', () => {
  it('makes no telemetry object, span or instrument, and the answers are unchanged', async () => {
    useOpenTelemetry(api);
    expect(telemetry()).toBeUndefined();
    expect(startRequestTelemetry({ binding: 'JSONRPC', version: undefined, tenant: undefined })).toBeUndefined();
    const server = await startServer({
      agentCard: { ...card, capabilities: { streaming: true } },
      executor: { execute: async (ctx: { complete(text: string): Promise<void> }) => ctx.complete('ok') },
    });
    closers.push(server.close);
    const sent = await server.rpc(
      'SendMessage',
      { message: { messageId: 'm', role: 'ROLE_USER', parts: [{ text: 'hi' }] } },
      { traceparent: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01' },
    );
    expect(sent.body.result.task.status.state).toBe('TASK_STATE_COMPLETED');
    expect(api.trace.getActiveSpan()).toBeUndefined();
    expect(telemetry()).toBeUndefined();
  });
});
