import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type Message, Role, type SendMessageRequest } from '@a2a-js/sdk';
import { type Client, ClientFactory, ClientFactoryOptions } from '@a2a-js/sdk/client';

/** Listens on 127.0.0.1, port 0; resolves with the origin. */
export async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

export const close = (server: Server): Promise<void> =>
  new Promise((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });

/** The official client, from the card at the origin, preferring `transport`. */
export function sdkClient(origin: string, transport: 'JSONRPC' | 'HTTP+JSON'): Promise<Client> {
  const options = ClientFactoryOptions.createFrom(ClientFactoryOptions.default, { preferredTransports: [transport] });
  return new ClientFactory(options).createFromUrl(origin);
}

export function userMessage(value: string, taskId = '', contextId = ''): Message {
  return {
    messageId: crypto.randomUUID(),
    contextId,
    taskId,
    role: Role.ROLE_USER,
    parts: [{ content: { $case: 'text', value }, metadata: undefined, filename: '', mediaType: '' }],
    metadata: undefined,
    extensions: [],
    referenceTaskIds: [],
  };
}

export const send = (value: string, taskId = '', contextId = ''): SendMessageRequest => ({
  tenant: '',
  message: userMessage(value, taskId, contextId),
  configuration: undefined,
  metadata: undefined,
});
