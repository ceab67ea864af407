import { A2AClient, type A2AClientOptions, type OperationName, type ProtocolBinding } from '../src/index.js';

// Valid answers for every operation, the calls that ask for them, and how each binding wraps them: the material the
// hostile-agent tests twist.

export const validMessage = () => ({ messageId: 'm1', role: 'ROLE_AGENT', parts: [{ text: 'hi' }] });
export const validTask = (state = 'TASK_STATE_COMPLETED') => ({
  id: 't1',
  contextId: 'c1',
  status: { state, message: validMessage() },
  artifacts: [{ artifactId: 'a1', parts: [{ text: 'x' }] }],
  history: [validMessage()],
});
const validPushConfig = () => ({ id: 'h1', taskId: 't1', url: 'http://127.0.0.1:9/hook' });

export const cardFor = (url: string, binding: ProtocolBinding = 'JSONRPC') => ({
  name: 'Hostile',
  supportedInterfaces: [{ url: `${url}/a2a`, protocolBinding: binding, protocolVersion: '1.0' }],
});

export const UNARY = [
  'SendMessage',
  'GetTask',
  'ListTasks',
  'CancelTask',
  'CreateTaskPushNotificationConfig',
  'GetTaskPushNotificationConfig',
  'ListTaskPushNotificationConfigs',
  'DeleteTaskPushNotificationConfig',
  'GetExtendedAgentCard',
] as const satisfies OperationName[];
export const STREAMS = ['SendStreamingMessage', 'SubscribeToTask'] as const satisfies OperationName[];
export type Operation = (typeof UNARY)[number] | (typeof STREAMS)[number];

/** A valid result of each unary operation (a card for GetExtendedAgentCard). */
export const validResult = (operation: Operation, url: string): unknown => {
  switch (operation) {
    case 'SendMessage':
      return { task: validTask() };
    case 'GetTask':
    case 'CancelTask':
      return validTask();
    case 'ListTasks':
      return { tasks: [validTask()], nextPageToken: '' };
    case 'CreateTaskPushNotificationConfig':
    case 'GetTaskPushNotificationConfig':
      return validPushConfig();
    case 'ListTaskPushNotificationConfigs':
      return { configs: [validPushConfig()] };
    case 'DeleteTaskPushNotificationConfig':
      return {};
    case 'GetExtendedAgentCard':
      return cardFor(url);
    default:
      return { task: validTask() }; // streams: one final event
  }
};

const message = { messageId: 'm', role: 'ROLE_USER' as const, parts: [{ text: 'x' }] };

/** Calls `operation` and reads it to the end (a stream: every event). */
export async function invoke(client: A2AClient, operation: Operation): Promise<unknown> {
  switch (operation) {
    case 'SendMessage':
      return client.sendMessage({ message });
    case 'GetTask':
      return client.getTask({ id: 't1' });
    case 'ListTasks':
      return client.listTasks({});
    case 'CancelTask':
      return client.cancelTask({ id: 't1' });
    case 'CreateTaskPushNotificationConfig':
      return client.createTaskPushNotificationConfig({ taskId: 't1', url: 'http://127.0.0.1:9/hook' });
    case 'GetTaskPushNotificationConfig':
      return client.getTaskPushNotificationConfig({ taskId: 't1', id: 'h1' });
    case 'ListTaskPushNotificationConfigs':
      return client.listTaskPushNotificationConfigs({ taskId: 't1' });
    case 'DeleteTaskPushNotificationConfig':
      return client.deleteTaskPushNotificationConfig({ taskId: 't1', id: 'h1' });
    case 'GetExtendedAgentCard':
      return client.getExtendedAgentCard();
    case 'SendStreamingMessage':
    case 'SubscribeToTask': {
      const stream =
        operation === 'SendStreamingMessage'
          ? client.sendStreamingMessage({ message })
          : client.subscribeToTask({ id: 't1' });
      const events: unknown[] = [];
      for await (const event of stream) events.push(event);
      return events;
    }
  }
}

/** The body a binding answers `result` with: a JSON-RPC envelope, or the object itself (HTTP+JSON). */
export const unaryBody = (binding: ProtocolBinding, result: unknown) =>
  JSON.stringify(binding === 'JSONRPC' ? { jsonrpc: '2.0', id: 1, result } : result);

/** One SSE event carrying `event` as the binding frames it. */
export const sseEvent = (binding: ProtocolBinding, event: unknown, id = 1) =>
  `id: ${id}\ndata: ${unaryBody(binding, event)}\n\n`;

export const clientFor = (url: string, binding: ProtocolBinding, options: A2AClientOptions = {}) =>
  new A2AClient(cardFor(url, binding) as never, { bindings: [binding], reconnect: false, ...options });
