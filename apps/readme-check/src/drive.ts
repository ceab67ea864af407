import { randomUUID } from 'node:crypto';
import { Role, type SendMessageResult, type StreamResponse, type Task, TaskState } from '@a2a-js/sdk';
import { type Client, ClientFactory, ClientFactoryOptions, DefaultAgentCardResolver } from '@a2a-js/sdk/client';
import { GrpcTransportFactory } from '@a2a-js/sdk/client/grpc';

/** Creates a client from the card, as the official SDK finds it: `ClientFactory.createFromUrl(origin)`. */
async function clientFor(origin: string, transport: string): Promise<Client> {
  const factory = new ClientFactory(
    ClientFactoryOptions.createFrom(ClientFactoryOptions.default, { preferredTransports: [transport] }),
  );
  try {
    return await factory.createFromUrl(origin);
  } catch (err) {
    throw new Error(`no agent card at ${origin}/.well-known/agent-card.json: ${err}`);
  }
}

const message = (text: string, taskId = '') => ({
  tenant: '',
  message: {
    messageId: randomUUID(),
    contextId: '',
    taskId,
    role: Role.ROLE_USER,
    parts: [{ content: { $case: 'text' as const, value: text }, metadata: undefined, filename: '', mediaType: '' }],
    metadata: undefined,
    extensions: [],
    referenceTaskIds: [],
  },
  configuration: undefined,
  metadata: undefined,
});

function asTask(result: SendMessageResult, what: string): Task {
  if (!('status' in result)) throw new Error(`${what}: expected a task, got a message: ${JSON.stringify(result)}`);
  return result;
}

function check(condition: boolean, what: string, got: unknown): void {
  if (!condition) throw new Error(`${what}; got ${JSON.stringify(got)}`);
}

/** A step of the drive, named `<transport> <step>` in the list it returns and in the error it throws. */
type Step = <T>(name: string, fn: () => Promise<T>) => Promise<T>;

function stepper(transport: string, steps: string[]): Step {
  return async (name, fn) => {
    try {
      const out = await fn();
      steps.push(`${transport} ${name}`);
      return out;
    } catch (err) {
      throw new Error(`${transport} ${name}: ${err instanceof Error ? err.message : String(err)}`);
    }
  };
}

/**
 * The letter writer's behaviour through one client: send (an address completes the task with the `letter` artifact),
 * stream, get, list, and cancel (no address leaves the task INPUT_REQUIRED, then CancelTask cancels it).
 */
async function driveClient(client: Client, step: Step): Promise<void> {
  const done = await step('send', async () => {
    const task = asTask(await client.sendMessage(message('Write to ada@example.org')), 'SendMessage');
    check(task.status?.state === TaskState.TASK_STATE_COMPLETED, 'SendMessage: task not COMPLETED', task.status);
    const letter = task.artifacts.find((a) => a.artifactId === 'letter');
    const text = letter?.parts.map((p) => (p.content?.$case === 'text' ? p.content.value : '')).join('');
    check(text === 'Dear friend,\nall is well.', 'SendMessage: letter artifact', task.artifacts);
    return task;
  });
  await step('stream', async () => {
    const events: StreamResponse[] = [];
    for await (const event of client.sendMessageStream(message('Write to grace@example.org'))) events.push(event);
    const cases = events.map((e) => e.payload?.$case);
    const last = events.at(-1)?.payload;
    check(cases.includes('artifactUpdate'), 'SendStreamingMessage: no artifact update', cases);
    check(
      last?.$case === 'statusUpdate' && last.value.status?.state === TaskState.TASK_STATE_COMPLETED,
      'SendStreamingMessage: last event is not the COMPLETED status',
      last,
    );
  });
  await step('get', async () => {
    const task = await client.getTask({ tenant: '', id: done.id, historyLength: undefined });
    check(task.id === done.id && task.status?.state === TaskState.TASK_STATE_COMPLETED, 'GetTask', task);
  });
  await step('list', async () => {
    const list = await client.listTasks({
      tenant: '',
      contextId: '',
      status: TaskState.TASK_STATE_UNSPECIFIED,
      pageToken: '',
      includeArtifacts: false,
      statusTimestampAfter: undefined,
    });
    check(
      list.tasks.some((t) => t.id === done.id),
      'ListTasks: the sent task is missing',
      list.tasks.map((t) => t.id),
    );
  });
  await step('cancel', async () => {
    const waiting = asTask(await client.sendMessage(message('Write a letter')), 'SendMessage without an address');
    check(waiting.status?.state === TaskState.TASK_STATE_INPUT_REQUIRED, 'SendMessage: not INPUT_REQUIRED', waiting);
    const canceled = await client.cancelTask({ tenant: '', id: waiting.id, metadata: undefined });
    check(canceled.status?.state === TaskState.TASK_STATE_CANCELED, 'CancelTask: not CANCELED', canceled.status);
  });
}

/**
 * Drives the README's letter writer (root README, "Writing an agent") through the official client: card, send,
 * stream, get, list, cancel, over each transport the card offers. Throws naming the step that failed.
 */
export async function driveLetterWriter(origin: string): Promise<string[]> {
  const steps: string[] = [];
  for (const transport of ['JSONRPC', 'HTTP+JSON']) {
    const step = stepper(transport, steps);
    const client = await step('card', () => clientFor(origin, transport));
    await driveClient(client, step);
  }
  return steps;
}

/**
 * The same over gRPC (`@a2a/grpc`'s example), through the official client's gRPC transport (`GrpcTransportFactory`,
 * `@grpc/grpc-js` underneath): the card read at `origin` (the example serves it over HTTP) must list the GRPC
 * interface at `address` (`host:port`), then send, stream, get, list and cancel go over gRPC.
 */
export async function driveLetterWriterOverGrpc(origin: string, address: string): Promise<string[]> {
  const steps: string[] = [];
  const step = stepper('GRPC', steps);
  const client = await step('card', async () => {
    const card = await new DefaultAgentCardResolver().resolve(origin);
    const grpc = card.supportedInterfaces.find((i) => i.protocolBinding === 'GRPC');
    check(grpc?.url === address, `the card lists no GRPC interface at ${address}`, card.supportedInterfaces);
    const factory = new ClientFactory(
      ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
        transports: [new GrpcTransportFactory()],
        preferredTransports: ['GRPC'],
      }),
    );
    return factory.createFromAgentCard(card);
  });
  await driveClient(client, step);
  return steps;
}
