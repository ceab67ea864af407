import { createServer } from 'node:http';
import { type AgentExecutor, createA2AHandler, generatePushSigningKey, PushSigner } from '@a2a/core';
import { createNodeHandler, createNodePushSender } from '@a2a/core/node';
import { createPlayground } from '@a2a/playground';

/** A long-running task: a few progress artifacts a second apart, then done. The work goes on after execute(). */
const executor: AgentExecutor = {
  async execute(ctx) {
    await ctx.submit();
    void (async () => {
      await ctx.working('Counting sheep');
      for (let i = 1; i <= 5 && !ctx.signal.aborted; i++) {
        await new Promise((r) => setTimeout(r, 1000));
        await ctx.artifact({ artifactId: 'sheep', text: `sheep ${i}\n`, append: i > 1, lastChunk: i === 5 });
      }
      if (!ctx.signal.aborted) await ctx.complete('All sheep counted');
    })();
  },
};

export async function startAgent(port: number, issuer: string) {
  const sender = createNodePushSender({
    // The demo's receiver runs on this machine: allow loopback explicitly (refused by default).
    ssrf: { allow: ['127.0.0.1', 'localhost'] },
    signer: new PushSigner({ issuer, keys: [await generatePushSigningKey('demo-1')] }),
    onDeliveryFailure: (f) => console.warn(`[agent] gave up on ${f.notificationId}: ${f.reason}`),
  });
  const a2a = createA2AHandler({
    agentCard: {
      name: 'Sheep counter',
      description: 'Counts sheep slowly and reports progress by webhook',
      version: '1.0.0',
      capabilities: { streaming: true, pushNotifications: true },
      skills: [{ id: 'count', name: 'Count sheep', description: 'Takes a few seconds', tags: ['demo'] }],
    },
    executor,
    pushNotifications: sender,
  });
  // The browser playground at /playground first; every other path goes on to the agent.
  const playground = createNodeHandler(createPlayground());
  const agent = createNodeHandler(a2a);
  const server = createServer((req, res) => void playground(req, res, () => void agent(req, res)));
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return { server, sender };
}
