// The differential steps through `@a2a-js/sdk` 0.3.14's clients: `A2AClient` (JSON-RPC, its answers are JSON-RPC
// responses) and the `ClientFactory` client (HTTP+JSON, it throws typed errors). v0.3 has no ListTasks.
import { eventually } from '@a2a/adapter-testsuite';
import type { Message, MessageSendParams, Task, TaskStatusUpdateEvent } from '@a2a-js/sdk-v03';
import { A2AClient, ClientFactory, ClientFactoryOptions } from '@a2a-js/sdk-v03/client';
import { outcome, plain } from './differential-normalize.js';
import type { Run } from './differential-scenarios.js';

export type V03Transport = 'A2AClient JSON-RPC' | 'ClientFactory HTTP+JSON';
type StreamEvent = Message | Task | TaskStatusUpdateEvent | { kind: 'artifact-update' };

/** What the steps need from a 0.3 client; errors are thrown. */
interface V03Driver {
  send(params: MessageSendParams): Promise<Message | Task>;
  stream(params: MessageSendParams): AsyncGenerator<StreamEvent>;
  get(id: string, historyLength?: number): Promise<Task>;
  cancel(id: string): Promise<Task>;
  resubscribe(id: string): AsyncGenerator<StreamEvent>;
  push: {
    set(taskId: string): Promise<unknown>;
    get(taskId: string): Promise<unknown>;
    list(taskId: string): Promise<unknown>;
    delete(taskId: string): Promise<unknown>;
  };
}

/** A JSON-RPC error answer, as thrown. */
class JsonRpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

function unwrap<T>(response: { result?: T; error?: { code: number; message: string } }): T {
  if ('error' in response && response.error) throw new JsonRpcError(response.error.code, response.error.message);
  return (response as { result: T }).result;
}

async function driver(origin: string, transport: V03Transport): Promise<V03Driver> {
  if (transport === 'A2AClient JSON-RPC') {
    const client = await A2AClient.fromCardUrl(`${origin}/.well-known/agent-card.json`);
    return {
      send: async (params) => unwrap(await client.sendMessage(params)) as Message | Task,
      stream: (params) => client.sendMessageStream(params) as AsyncGenerator<StreamEvent>,
      get: async (id, historyLength) =>
        unwrap(await client.getTask({ id, ...(historyLength === undefined ? {} : { historyLength }) })) as Task,
      cancel: async (id) => unwrap(await client.cancelTask({ id })) as Task,
      resubscribe: (id) => client.resubscribeTask({ id }) as AsyncGenerator<StreamEvent>,
      push: {
        set: async (taskId) =>
          unwrap(await client.setTaskPushNotificationConfig({ taskId, pushNotificationConfig: HOOK })),
        // The wire takes the config id; the client's type names only the task's.
        get: async (id) => unwrap(await client.getTaskPushNotificationConfig({ id, ...HOOK_ID } as { id: string })),
        list: async (id) => unwrap(await client.listTaskPushNotificationConfig({ id })),
        delete: async (id) => unwrap(await client.deleteTaskPushNotificationConfig({ id, ...HOOK_ID })),
      },
    };
  }
  const options = ClientFactoryOptions.createFrom(ClientFactoryOptions.default, { preferredTransports: ['HTTP+JSON'] });
  const client = await new ClientFactory(options).createFromUrl(origin);
  return {
    send: (params) => client.sendMessage(params),
    stream: (params) => client.sendMessageStream(params) as AsyncGenerator<StreamEvent>,
    get: (id, historyLength) => client.getTask({ id, ...(historyLength === undefined ? {} : { historyLength }) }),
    cancel: (id) => client.cancelTask({ id }),
    resubscribe: (id) => client.resubscribeTask({ id }) as AsyncGenerator<StreamEvent>,
    push: {
      set: (taskId) => client.setTaskPushNotificationConfig({ taskId, pushNotificationConfig: HOOK }),
      get: (id) => client.getTaskPushNotificationConfig({ id, ...HOOK_ID } as { id: string }),
      list: (id) => client.listTaskPushNotificationConfig({ id }),
      delete: (id) => client.deleteTaskPushNotificationConfig({ id, ...HOOK_ID }),
    },
  };
}

const HOOK = { id: 'hook-1', url: 'https://example.org/hook', token: 'secret' };
const HOOK_ID = { pushNotificationConfigId: 'hook-1' };

const message = (text: string, taskId?: string, contextId?: string): MessageSendParams => ({
  message: {
    kind: 'message',
    messageId: crypto.randomUUID(),
    role: 'user',
    parts: [{ kind: 'text', text }],
    ...(taskId ? { taskId } : {}),
    ...(contextId ? { contextId } : {}),
  },
});

const stateOf = (e: StreamEvent) =>
  e.kind === 'status-update' || e.kind === 'task' ? (e as TaskStatusUpdateEvent).status.state : undefined;
const taskIdOf = (e: StreamEvent | undefined) =>
  e?.kind === 'task' ? (e as Task).id : e?.kind === 'status-update' ? (e as TaskStatusUpdateEvent).taskId : '';

/** The same steps as the 1.x ones (but ListTasks), through a 0.3 client; the results masked with one alias table. */
export async function runV03Scenarios(origin: string, transport: V03Transport): Promise<Run> {
  const client = await driver(origin, transport);
  const steps: Run['steps'] = {};
  const keep = (name: string, value: unknown) => {
    steps[name] = plain(value);
  };

  const note = (await client.send(message('note please'))) as Task;
  keep('send/task', note);
  keep('send/message', await client.send(message('reply hi')));

  const streamed: StreamEvent[] = [];
  for await (const event of client.stream(message('stream this'))) streamed.push(event);
  keep('stream/events', streamed);

  keep('get/full', await client.get(note.id));
  keep('get/history-1', await client.get(note.id, 1));
  keep('get/history-0', await client.get(note.id, 0));
  keep('whoami', await client.send(message('whoami')));

  const seen: StreamEvent[] = [];
  let canceled: unknown;
  for await (const event of client.stream(message('wait for me'))) {
    seen.push(event);
    if (stateOf(event) === 'working' && canceled === undefined) {
      canceled = await outcome(() => client.cancel(taskIdOf(event)));
    }
  }
  keep('cancel/answer', canceled);
  keep('cancel/stream', seen);
  keep('cancel/get', await client.get(taskIdOf(seen[0])));

  const asked = (await client.send(message('ask about tone'))) as Task;
  keep('input-required/ask', asked);
  keep('input-required/continue', await client.send(message('formal', asked.id, asked.contextId)));
  keep('input-required/get', await client.get(asked.id));

  const events = async (params: MessageSendParams) => {
    const seen: StreamEvent[] = [];
    for await (const event of client.stream(params)) seen.push(event);
    return seen;
  };
  const streamedAsk = await events(message('ask in a stream'));
  keep('input-required/stream-ask', streamedAsk);
  const [first] = streamedAsk as Task[];
  keep('input-required/stream-continue', await outcome(() => events(message('casual', first?.id, first?.contextId))));

  keep('resubscribe', await resubscribe(client));
  keep('error/agent-throws', await outcome(() => client.send(message('crash now'))));
  keep(
    'error/agent-throws-stream',
    await outcome(async () => {
      const events: StreamEvent[] = [];
      for await (const event of client.stream(message('crash while streaming'))) events.push(event);
      return events;
    }),
  );

  keep('error/get-unknown', await outcome(() => client.get('no-such-task')));
  keep('error/cancel-finished', await outcome(() => client.cancel(note.id)));
  keep('error/send-to-finished', await outcome(() => client.send(message('more', note.id, note.contextId))));
  // Push configs of a finished task (no event left to deliver): set, get, list, delete.
  keep('push/create', await outcome(() => client.push.set(note.id)));
  keep('push/get', await outcome(() => client.push.get(note.id)));
  keep('push/list', await outcome(() => client.push.list(note.id)));
  keep('push/delete', await outcome(() => client.push.delete(note.id)));
  keep('push/list-deleted', await outcome(() => client.push.list(note.id)));
  keep('push/get-deleted', await outcome(() => client.push.get(note.id)));
  keep(
    'error/subscribe-finished',
    await outcome(async () => {
      const events: StreamEvent[] = [];
      for await (const event of client.resubscribe(note.id)) events.push(event);
      return events;
    }),
  );
  return { origin, steps };
}

/** As the 1.x step: left by the stream that started it, watched by a resubscription, canceled meanwhile. */
async function resubscribe(client: V03Driver) {
  let taskId = '';
  for await (const event of client.stream(message('wait while I watch'))) {
    if (stateOf(event) === 'working') {
      taskId = taskIdOf(event);
      break;
    }
  }
  const seen: StreamEvent[] = [];
  let cancel: Promise<unknown> | undefined;
  for await (const event of client.resubscribe(taskId)) {
    seen.push(event);
    cancel ??= client.cancel(taskId);
  }
  await cancel;
  const final = await eventually(async () => {
    const task = await client.get(taskId);
    return task.status.state === 'canceled' ? task : undefined;
  }, 15_000);
  return { events: seen, final };
}
