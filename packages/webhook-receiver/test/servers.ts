import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { listen } from '@a2a/adapter-testsuite';
import {
  type A2AHandlerOptions,
  type AgentContext,
  type AgentExecutor,
  createA2AHandler,
  type PushSender,
} from '@a2a/core';
import { createNodeHandler, toWebRequest, writeNodeResponse } from '@a2a/core/node';
import { createWebhookReceiver, type WebhookReceiver } from '../src/index.js';

export const card = {
  name: 'Push agent',
  description: 'Long-running tasks with webhooks',
  version: '1.0.0',
  capabilities: { streaming: true, pushNotifications: true },
  skills: [{ id: 'work', name: 'Work', description: 'Works', tags: ['test'] }],
};

/** The `iss` of the test agents' push JWTs. */
export const AGENT_ISSUER = 'http://agent.test';

/** A receiver for `webhook` that checks the token `secret-token` and the JWTs of the agent at `agentUrl` (its JWKS). */
export const trustingReceiver = (agentUrl: string, webhook: string): WebhookReceiver =>
  createWebhookReceiver({
    token: 'secret-token',
    jwt: { jwks: `${agentUrl}/.well-known/jwks.json`, issuer: AGENT_ISSUER, audience: webhook },
  });

/** An executor that emits `chunks` artifacts then completes; each step waits for `gate` when given. */
export function chunkedExecutor(chunks: number, gate?: (ctx: AgentContext, i: number) => Promise<void>): AgentExecutor {
  return {
    async execute(ctx) {
      await ctx.submit();
      void (async () => {
        await ctx.working('starting');
        for (let i = 0; i < chunks; i++) {
          await gate?.(ctx, i);
          await ctx.artifact({ artifactId: 'out', text: `chunk ${i}`, append: i > 0, lastChunk: i === chunks - 1 });
        }
        await ctx.complete('done');
      })();
    },
  };
}

export async function startAgent(
  sender: PushSender,
  executor: AgentExecutor,
  extra: Partial<Exclude<A2AHandlerOptions, { requestHandler: object }>> = {},
) {
  const a2a = createA2AHandler({ agentCard: card, executor, pushNotifications: sender, onError: () => {}, ...extra });
  const listener = createNodeHandler(a2a);
  const server = createServer((req, res) => void listener(req, res));
  const { url, close } = await listen(server);
  let id = 0;
  const rpc = async (method: string, params: unknown) => {
    const response = await fetch(`${url}/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: ++id, method, params }),
    });
    return (await response.json()) as { result?: any; error?: { code: number; message: string } };
  };
  /** Starts a task that reports to `webhook`; returns its id. */
  const startTask = async (webhook: string, token = 'secret-token', configId = 'cfg') => {
    const answer = await rpc('SendMessage', {
      message: { messageId: crypto.randomUUID(), role: 'ROLE_USER', parts: [{ text: 'go' }] },
      configuration: { returnImmediately: true, taskPushNotificationConfig: { id: configId, url: webhook, token } },
    });
    if (!answer.result) throw new Error(JSON.stringify(answer.error));
    return answer.result.task.id as string;
  };
  return { url, server, rpc, startTask, close };
}

/** The receiver's Fetch handler on node:http; `intercept` may take over a request first. */
export async function startReceiver(
  receiver: WebhookReceiver | (() => WebhookReceiver),
  options: { port?: number; intercept?: (req: IncomingMessage, res: ServerResponse) => boolean } = {},
) {
  const server = createServer(async (req, res) => {
    if (options.intercept?.(req, res)) return;
    const current = typeof receiver === 'function' ? receiver() : receiver;
    const response = await current.handler.fetch(toWebRequest(req, res));
    await writeNodeResponse(res, response);
  });
  const { url, close } = await listen(server, { port: options.port });
  return { url, server, close };
}

/** Polls until `check` is true (bounded). */
export async function until(check: () => boolean, timeoutMs = 5000, what = 'condition'): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}
