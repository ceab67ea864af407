import type { Server } from 'node:http';
import { closeServer, listen as listenOn } from '@a2a/adapter-testsuite';
import { type Message, Role, type SendMessageRequest } from '@a2a-js/sdk';
import { type Client, ClientFactory, ClientFactoryOptions } from '@a2a-js/sdk/client';

/** Listens on 127.0.0.1, port 0 (the testsuite's shared harness); resolves with the origin. */
export const listen = async (server: Server): Promise<string> => (await listenOn(server)).url;

/** Drops open connections and closes. */
export const close = closeServer;

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
