import { startAgent } from './agent.js';
import { startReceiver } from './receiver.js';

const agentPort = Number(process.env.AGENT_PORT ?? 4000);
const receiverPort = Number(process.env.RECEIVER_PORT ?? 4001);
const token = process.env.WEBHOOK_TOKEN ?? 'demo-token';
const agentUrl = `http://127.0.0.1:${agentPort}`;

const agent = await startAgent(agentPort, agentUrl);
const receiver = await startReceiver(receiverPort, agentUrl, token);
console.log(
  `Agent    ${agentUrl}  (card: ${agentUrl}/.well-known/agent-card.json, keys: ${agentUrl}/.well-known/jwks.json)`,
);
console.log(`Playground ${agentUrl}/playground`);
console.log(`Receiver ${receiver.webhookUrl}  (token: ${token})`);
console.log('Start a task that reports to the receiver (see README), then watch the notifications arrive here.');

const stop = () => {
  agent.sender.close();
  agent.server.close();
  receiver.server.close();
  agent.server.closeAllConnections();
  receiver.server.closeAllConnections();
};
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
