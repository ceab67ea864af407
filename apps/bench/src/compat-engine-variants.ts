// What compat-engine-ab.js and compat-engine-bytes.js both run: the bench's request handlers on the engine alone (no
// HTTP), one per variant (the native echo agent, the SDK-style one through @a2a/sdk-compat and, with a baseline, through
// a copy of an earlier build), and one SendMessage or 10-event stream through a handler.
import { resolve } from 'node:path';
import { type AgentExecutor, createRequestHandler, InMemoryTaskStore, type SendMessageRequest } from '@a2a/core';
import { fromSdkExecutor } from '@a2a/sdk-compat';
import { benchCard, echoExecutor } from './echo-agent.js';
import { SdkEchoExecutor } from './sdk-echo-agent.js';

export type EngineHandler = ReturnType<typeof createRequestHandler>;

/** The variants' names and handlers: `native`, `compat` and, with `baseline` (a built dist's folder), `baseline`. */
export async function engineVariants(baseline?: string): Promise<{ names: string[]; handlers: EngineHandler[] }> {
  const executors: Record<string, AgentExecutor> = {
    native: echoExecutor,
    compat: fromSdkExecutor(new SdkEchoExecutor()),
  };
  if (baseline) {
    const earlier = (await import(resolve(baseline, 'index.js'))) as typeof import('@a2a/sdk-compat');
    executors.baseline = earlier.fromSdkExecutor(new SdkEchoExecutor());
  }
  const names = Object.keys(executors);
  const handlers = names.map((name) =>
    createRequestHandler({
      agentCard: benchCard,
      executor: executors[name] as AgentExecutor,
      taskStore: new InMemoryTaskStore(),
    }),
  );
  return { names, handlers };
}

/** One request of the scenario through `handler`: a blocking SendMessage, or a stream that must carry 10 events. */
export function engineRequest(
  scenario: 'send' | 'stream',
  idPrefix: string,
): (handler: EngineHandler) => Promise<void> {
  let n = 0;
  const text = scenario === 'stream' ? 'stream:10' : 'hello from bench';
  const request = (): SendMessageRequest => ({
    message: { messageId: `${idPrefix}-${n++}`, role: 'ROLE_USER', parts: [{ text }] },
  });
  return async (handler) => {
    if (scenario === 'send') {
      await handler.sendMessage(request(), {});
      return;
    }
    let events = 0;
    for await (const _ of handler.sendStreamingMessage(request(), {})) events++;
    if (events !== 10) throw new Error(`a stream of ${events} events`);
  };
}
