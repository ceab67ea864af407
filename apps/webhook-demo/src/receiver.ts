import { createServer } from 'node:http';
import { toWebRequest, writeNodeResponse } from '@a2a/core/node';
import { createWebhookReceiver } from '@a2a/webhook-receiver';

export async function startReceiver(port: number, agentUrl: string, token: string) {
  const webhookUrl = `http://127.0.0.1:${port}/webhook`;
  const receiver = createWebhookReceiver({
    token,
    jwt: { jwks: `${agentUrl}/.well-known/jwks.json`, issuer: agentUrl, audience: webhookUrl },
    path: '/webhook',
    onError: (error) => console.warn(`[receiver] refused: ${(error as Error).message}`),
  });
  receiver.on('statusUpdate', (n) => console.log(`[receiver] #${n.seq} task ${n.taskId}: ${n.payload.status.state}`));
  receiver.on('artifactUpdate', (n) => {
    const text = n.payload.artifact.parts
      .map((p) => p.text ?? '')
      .join('')
      .trim();
    console.log(`[receiver] #${n.seq} task ${n.taskId}: artifact ${n.payload.artifact.artifactId} += "${text}"`);
  });
  const server = createServer(async (req, res) =>
    writeNodeResponse(res, await receiver.handler.fetch(toWebRequest(req, res))),
  );
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return { server, webhookUrl };
}
