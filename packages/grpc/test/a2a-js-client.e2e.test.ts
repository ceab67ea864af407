import { ClientFactory, ClientFactoryOptions } from '@a2a-js/sdk/client';
import { GrpcTransportFactory } from '@a2a-js/sdk/client/grpc';
import { afterEach, describe, expect, it } from 'vitest';
import { type Harness, startHarness, testExecutor } from './harness.js';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

// The official JS SDK (1.3.0) speaks ts-proto shapes: roles as numbers, parts as `{ content: { $case, value } }`.
// Its gRPC serializer wants every repeated field present.
const sdkMessage = (text: string) => ({
  tenant: '',
  message: {
    messageId: crypto.randomUUID(),
    contextId: '',
    taskId: '',
    role: 1,
    parts: [{ content: { $case: 'text', value: text }, filename: '', mediaType: '' }],
    extensions: [],
    referenceTaskIds: [],
  },
});

describe('the official @a2a-js/sdk gRPC client', () => {
  it('finds the GRPC interface in the card and drives every kind of RPC', async () => {
    const agent = testExecutor();
    h = await startHarness({ executor: agent.executor });
    const factory = new ClientFactory(
      ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
        transports: [new GrpcTransportFactory()],
        preferredTransports: ['GRPC'],
      }),
    );
    const client = await factory.createFromUrl(h.httpUrl);
    type Params<K extends keyof typeof client> = (typeof client)[K] extends (p: infer P, ...r: never[]) => unknown
      ? P
      : never;

    const task = (await client.sendMessage(sdkMessage('ask') as unknown as Params<'sendMessage'>)) as {
      id: string;
      status?: { state: number };
    };
    expect(task.id).toBeTruthy();
    expect(task.status?.state).toBe(6); // TASK_STATE_INPUT_REQUIRED
    const got = (await client.getTask({ tenant: '', id: task.id } as unknown as Params<'getTask'>)) as { id: string };
    expect(got.id).toBe(task.id);
    const list = (await client.listTasks({
      tenant: '',
      contextId: '',
      status: 0,
      pageToken: '',
    } as unknown as Params<'listTasks'>)) as { tasks: unknown[] };
    expect(list.tasks).toHaveLength(1);

    const events: unknown[] = [];
    for await (const event of client.sendMessageStream(sdkMessage('hello') as unknown as Params<'sendMessage'>)) {
      events.push(event);
    }
    expect(events.length).toBeGreaterThan(0);

    const canceled = (await client.cancelTask({ tenant: '', id: task.id } as unknown as Params<'cancelTask'>)) as {
      status?: { state: number };
    };
    expect(canceled.status?.state).toBe(5); // TASK_STATE_CANCELED

    // Errors come back as the SDK's typed A2A errors, read from the status details.
    const error = await client.getTask({ tenant: '', id: 'missing' } as unknown as Params<'getTask'>).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).constructor.name).toMatch(/TaskNotFound/);
  });
});
