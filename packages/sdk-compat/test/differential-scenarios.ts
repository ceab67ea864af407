// The calls the differential suite makes with `@a2a-js/sdk` 1.x's client, each step's result kept as ProtoJSON and
// masked: send (a task, a message), stream, get, list, the caller, cancel mid-stream, input-required then continue,
// resubscribe to a running task, and the refusals (unknown task, finished task, push without push).
import { eventually } from '@a2a/adapter-testsuite';
import * as a2a from '@a2a-js/sdk';
import {
  type Client,
  ClientFactory,
  ClientFactoryOptions,
  JsonRpcTransportFactory,
  RestTransportFactory,
  ServiceParameters,
  withA2AExtensions,
} from '@a2a-js/sdk/client';
import { outcome, plain } from './differential-normalize.js';
import { EXTENSION_URI } from './fixtures/sdk-agents.js';
import { send } from './helpers.js';

export type Transport = 'JSONRPC' | 'HTTP+JSON';
/** One run: where it ran (masked in the comparison) and each step's result as plain JSON, in order. */
export interface Run {
  origin: string;
  steps: Record<string, unknown>;
}

const json = {
  result: (r: a2a.SendMessageResult) =>
    'status' in r ? { task: a2a.Task.toJSON(r) } : { message: a2a.Message.toJSON(r as a2a.Message) },
  task: (t: a2a.Task) => a2a.Task.toJSON(t),
  event: (e: a2a.StreamResponse) => a2a.StreamResponse.toJSON(e),
};

const stateOf = (e: a2a.StreamResponse) =>
  e.payload?.$case === 'statusUpdate'
    ? e.payload.value.status?.state
    : e.payload?.$case === 'task'
      ? e.payload.value.status?.state
      : undefined;
const taskIdOf = (e: a2a.StreamResponse | undefined): string =>
  e?.payload?.$case === 'task'
    ? e.payload.value.id
    : e?.payload?.$case === 'statusUpdate'
      ? e.payload.value.taskId
      : '';

const UNKNOWN_EXTENSION = 'https://example.org/ext/not-declared';

/** A `fetch` that keeps the headers of the last response. */
function recorder() {
  const kept: { last?: Headers; fetch: typeof fetch } = {
    fetch: async (input, init) => {
      const response = await fetch(input, init);
      kept.last = response.headers;
      return response;
    },
  };
  return kept;
}

/** Runs every step against the server at `origin` over `transport`; the results, masked with one alias table. */
export async function runScenarios(origin: string, transport: Transport): Promise<Run> {
  const headers = recorder();
  const options = ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
    transports: [
      new JsonRpcTransportFactory({ fetchImpl: headers.fetch }),
      new RestTransportFactory({ fetchImpl: headers.fetch }),
    ],
    preferredTransports: [transport],
  });
  const client = await new ClientFactory(options).createFromUrl(origin);
  const steps: Run['steps'] = {};
  const keep = (name: string, value: unknown) => {
    steps[name] = plain(value);
  };
  keep('protocol', client.protocolVersion);

  // A task with a two-chunk artifact, status and task metadata.
  const note = await client.sendMessage(send('note please'));
  keep('send/task', json.result(note));
  const taskId = 'id' in note ? note.id : '';
  const contextId = note.contextId;
  keep('send/message', json.result(await client.sendMessage(send('reply hi'))));

  const streamed: unknown[] = [];
  for await (const event of client.sendMessageStream(send('stream this'))) streamed.push(json.event(event));
  keep('stream/events', streamed);

  keep('get/full', json.task(await client.getTask({ tenant: '', id: taskId, historyLength: undefined })));
  keep('get/history-1', json.task(await client.getTask({ tenant: '', id: taskId, historyLength: 1 })));
  keep('get/history-0', json.task(await client.getTask({ tenant: '', id: taskId, historyLength: 0 })));

  // A second task in the first one's context: the list, filtered by that context, holds both, newest first.
  // Sorted by their first message: the fixture stamps every status alike, and the SDK orders equal timestamps by
  // (random) task id.
  keep('list/second', json.result(await client.sendMessage(send('note again', '', contextId))));
  const listed = a2a.ListTasksResponse.toJSON(await client.listTasks(a2a.ListTasksRequest.fromJSON({ contextId })));
  const { tasks = [], ...page } = plain(listed) as { tasks?: { history?: { parts: { text?: string }[] }[] }[] };
  const firstWords = (t: (typeof tasks)[number]) => t.history?.[0]?.parts[0]?.text ?? '';
  keep('list/context', { ...page, tasks: tasks.sort((a, b) => firstWords(a).localeCompare(firstWords(b))) });

  keep('whoami', json.result(await client.sendMessage(send('whoami'))));

  // Canceled while its stream is open: the cancel's answer and everything the stream saw.
  const seen: a2a.StreamResponse[] = [];
  let canceled: unknown;
  for await (const event of client.sendMessageStream(send('wait for me'))) {
    seen.push(event);
    if (stateOf(event) === a2a.TaskState.TASK_STATE_WORKING && canceled === undefined) {
      canceled = await outcome(async () =>
        json.task(await client.cancelTask({ tenant: '', id: taskIdOf(event), metadata: undefined })),
      );
    }
  }
  keep('cancel/answer', canceled);
  keep('cancel/stream', seen.map(json.event));
  const canceledId = taskIdOf(seen[0]);
  keep('cancel/get', json.task(await client.getTask({ tenant: '', id: canceledId, historyLength: undefined })));

  // Input required, then the same task continued.
  const asked = await client.sendMessage(send('ask about tone'));
  keep('input-required/ask', json.result(asked));
  const askedId = 'id' in asked ? asked.id : '';
  keep('input-required/continue', json.result(await client.sendMessage(send('formal', askedId, asked.contextId))));
  keep('input-required/get', json.task(await client.getTask({ tenant: '', id: askedId, historyLength: undefined })));

  // The same over streams: the first ends at INPUT_REQUIRED, the second continues the task to COMPLETED.
  const events = async (value: string, id = '', context = '') => {
    const seen: unknown[] = [];
    for await (const event of client.sendMessageStream(send(value, id, context))) seen.push(json.event(event));
    return seen;
  };
  const streamedAsk = await events('ask in a stream');
  keep('input-required/stream-ask', streamedAsk);
  const [first] = streamedAsk as { task?: { id: string; contextId: string } }[];
  const continued = () => events('casual', first?.task?.id, first?.task?.contextId);
  keep('input-required/stream-continue', await outcome(continued));

  keep('resubscribe', await resubscribe(client));

  // Extensions: the response's A2A-Extensions lists what the executor activated (one declared, one unknown asked).
  const asking = { serviceParameters: ServiceParameters.create(withA2AExtensions(EXTENSION_URI, UNKNOWN_EXTENSION)) };
  const toned = await client.sendMessage(send('note in tone'), asking);
  keep('extensions/echo', { result: json.result(toned), echoed: headers.last?.get('a2a-extensions') ?? null });

  keep('error/agent-throws', await outcome(async () => json.result(await client.sendMessage(send('crash now')))));
  keep(
    'error/agent-throws-stream',
    await outcome(async () => {
      const events: unknown[] = [];
      for await (const event of client.sendMessageStream(send('crash while streaming'))) events.push(json.event(event));
      return events;
    }),
  );

  // Refusals: the client's error class and message.
  keep(
    'error/get-unknown',
    await outcome(() => client.getTask({ tenant: '', id: 'no-such-task', historyLength: undefined })),
  );
  keep(
    'error/cancel-finished',
    await outcome(() => client.cancelTask({ tenant: '', id: taskId, metadata: undefined })),
  );
  keep('error/send-to-finished', await outcome(() => client.sendMessage(send('more', taskId, contextId))));
  // Push configs of a finished task (no event left to deliver): create, get, list, delete.
  const config = { tenant: '', taskId, id: 'hook-1' };
  const pushConfig = a2a.TaskPushNotificationConfig;
  const listConfigs = async () =>
    a2a.ListTaskPushNotificationConfigsResponse.toJSON(
      await client.listTaskPushNotificationConfig(a2a.ListTaskPushNotificationConfigsRequest.fromJSON({ taskId })),
    );
  const hook = pushConfig.fromJSON({ ...config, url: 'https://example.org/hook', token: 'secret' });
  keep(
    'push/create',
    await outcome(async () => pushConfig.toJSON(await client.createTaskPushNotificationConfig(hook))),
  );
  keep('push/get', await outcome(async () => pushConfig.toJSON(await client.getTaskPushNotificationConfig(config))));
  keep('push/list', await outcome(listConfigs));
  keep('push/delete', await outcome(() => client.deleteTaskPushNotificationConfig(config)));
  keep('push/list-deleted', await outcome(listConfigs));
  keep('push/get-deleted', await outcome(() => client.getTaskPushNotificationConfig(config)));
  keep(
    'error/subscribe-finished',
    await outcome(async () => {
      for await (const _ of client.resubscribeTask({ tenant: '', id: taskId })) {
        // A finished task's stream has nothing to wait for.
      }
    }),
  );
  return { origin, steps };
}

/**
 * A running task, watched first by the stream that started it (left after its first event), then by SubscribeToTask;
 * canceled once the subscription saw its first event. What the subscription saw, and the task's final state.
 */
async function resubscribe(client: Client) {
  let taskId = '';
  for await (const event of client.sendMessageStream(send('wait while I watch'))) {
    if (stateOf(event) === a2a.TaskState.TASK_STATE_WORKING) {
      taskId = taskIdOf(event);
      break;
    }
  }
  const seen: a2a.StreamResponse[] = [];
  let cancel: Promise<unknown> | undefined;
  for await (const event of client.resubscribeTask({ tenant: '', id: taskId })) {
    seen.push(event);
    cancel ??= client.cancelTask({ tenant: '', id: taskId, metadata: undefined });
  }
  await cancel;
  const final = await eventually<a2a.Task | undefined>(async () => {
    const task = await client.getTask({ tenant: '', id: taskId, historyLength: undefined });
    return task.status?.state === a2a.TaskState.TASK_STATE_CANCELED ? task : undefined;
  }, 15_000);
  return { events: seen.map(json.event), final: json.task(final as a2a.Task) };
}
