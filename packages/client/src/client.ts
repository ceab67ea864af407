import type {
  AgentCard,
  AgentInterface,
  CancelTaskRequest,
  DeleteTaskPushNotificationConfigRequest,
  GetTaskPushNotificationConfigRequest,
  GetTaskRequest,
  ListTaskPushNotificationConfigsRequest,
  ListTasksRequest,
  ListTasksResponse,
  SendMessageRequest,
  SendMessageResponse,
  SubscribeToTaskRequest,
  Task,
  TaskPushNotificationConfig,
  TaskPushNotificationConfigInput,
} from '@a2a/core';
import { checkCard, pickInterface, resolveAgentCard } from './card.js';
import type { A2AClientOptions } from './client-options.js';
import { invalidResponse } from './errors.js';
import { JsonRpcWire } from './json-rpc-wire.js';
import type { CallOptions, ProtocolBinding, StreamOptions } from './options.js';
import { RestWire } from './rest-wire.js';
import { RESULTS } from './shapes.js';
import { A2AStream } from './stream.js';
import type { StreamOperation, UnaryOperation, Wire } from './wire.js';

/** What ListTaskPushNotificationConfigs answers. */
export interface ListTaskPushNotificationConfigsResponse {
  configs: TaskPushNotificationConfig[];
  nextPageToken?: string;
}

/** Request types with their optional fields really optional (the core types are the parsed, defaulted forms). */
type Input<T> = { [K in keyof T]?: T[K] | undefined };
type WithId<T, K extends keyof T> = Input<T> & { [P in K]-?: NonNullable<T[P]> };

/**
 * An A2A v1.0 client for one agent interface. Create it from the agent's location with {@link A2AClient.connect},
 * or from a card you already have with `new A2AClient(card, options)`.
 */
export class A2AClient {
  /** The interface in use (its URL, binding, version and tenant). */
  readonly interface: AgentInterface & { protocolBinding: ProtocolBinding };
  /** The agent's card (as v1.0, also when it was read through a `protocol` plugin). */
  readonly card: AgentCard;
  private readonly wire: Wire;

  constructor(
    card: AgentCard,
    private readonly options: A2AClientOptions = {},
  ) {
    const { protocol } = options;
    this.card = protocol ? protocol.readCard(card, 'the card given') : checkCard(card);
    this.interface = pickInterface(this.card, options.bindings, protocol?.version);
    const { url, protocolBinding } = this.interface;
    const transport = { ...options };
    const wire = protocol
      ? protocol.wire(protocolBinding, url, transport)
      : protocolBinding === 'JSONRPC'
        ? new JsonRpcWire(url, transport)
        : new RestWire(url, transport);
    if (!wire) throw invalidResponse(`protocol ${protocol?.version} is not spoken over ${protocolBinding}`);
    this.wire = wire;
  }

  /** Resolves the card at `location` (an origin, a base URL or the card's URL) and connects to its interface. */
  static async connect(
    location: string | URL,
    options: A2AClientOptions & { signal?: AbortSignal } = {},
  ): Promise<A2AClient> {
    const { signal, ...clientOptions } = options;
    const card = await resolveAgentCard(location, {
      ...clientOptions,
      ...(signal ? { signal } : {}),
      ...(clientOptions.protocol ? { readCard: clientOptions.protocol.readCard } : {}),
    });
    return new A2AClient(card, clientOptions);
  }

  /** The binding in use. */
  get binding(): ProtocolBinding {
    return this.interface.protocolBinding;
  }

  private params<T extends object>(request: T): Record<string, unknown> {
    const tenant = this.interface.tenant;
    const params = { ...request } as Record<string, unknown>;
    if (tenant && params.tenant === undefined) params.tenant = tenant;
    return params;
  }

  /** The operation's result, checked to have the shape its type promises. */
  private async call<T>(operation: UnaryOperation, request: object, options: CallOptions = {}): Promise<T> {
    const result = await this.wire.unary(operation, this.params(request), options);
    if (RESULTS[operation]?.(result) === false)
      throw invalidResponse(`${operation} answered a result of the wrong shape`);
    return result as T;
  }

  private stream(operation: StreamOperation, request: object, options: StreamOptions = {}): A2AStream {
    return new A2AStream(
      {
        open: (o) => this.wire.stream(operation, this.params(request), o),
        resubscribe: (id, o) => this.wire.stream('SubscribeToTask', this.params({ id }), o),
        getTask: (id, { signal, headers }) =>
          this.getTask({ id }, { ...(signal ? { signal } : {}), ...(headers ? { headers } : {}) }),
      },
      options,
      this.options.reconnect ?? {},
    );
  }

  /** SendMessage: the task the message started or continued, or the agent's direct reply message. */
  async sendMessage(
    request: WithId<SendMessageRequest, 'message'>,
    options?: CallOptions,
  ): Promise<SendMessageResponse> {
    return this.call('SendMessage', request, options);
  }

  /** SendStreamingMessage: the task's events as they happen (or the one reply message). */
  sendStreamingMessage(request: WithId<SendMessageRequest, 'message'>, options?: StreamOptions): A2AStream {
    return this.stream('SendStreamingMessage', request, options);
  }

  /** GetTask. */
  getTask(request: WithId<GetTaskRequest, 'id'>, options?: CallOptions): Promise<Task> {
    return this.call('GetTask', request, options);
  }

  /** ListTasks: one page of the caller's tasks (`nextPageToken` fetches the next). */
  listTasks(request: Input<ListTasksRequest> = {}, options?: CallOptions): Promise<ListTasksResponse> {
    return this.call('ListTasks', request, options);
  }

  /** CancelTask: the task, canceled (or TaskNotCancelable). */
  cancelTask(request: WithId<CancelTaskRequest, 'id'>, options?: CallOptions): Promise<Task> {
    return this.call('CancelTask', request, options);
  }

  /** SubscribeToTask: the task's current state, then its events; `lastEventId` resumes after an event instead. */
  subscribeToTask(request: WithId<SubscribeToTaskRequest, 'id'>, options?: StreamOptions): A2AStream {
    return this.stream('SubscribeToTask', request, options);
  }

  /** CreateTaskPushNotificationConfig. */
  createTaskPushNotificationConfig(
    request: WithId<TaskPushNotificationConfigInput, 'taskId' | 'url'>,
    options?: CallOptions,
  ): Promise<TaskPushNotificationConfig> {
    return this.call('CreateTaskPushNotificationConfig', request, options);
  }

  /** GetTaskPushNotificationConfig. */
  getTaskPushNotificationConfig(
    request: WithId<GetTaskPushNotificationConfigRequest, 'taskId' | 'id'>,
    options?: CallOptions,
  ): Promise<TaskPushNotificationConfig> {
    return this.call('GetTaskPushNotificationConfig', request, options);
  }

  /** ListTaskPushNotificationConfigs. */
  listTaskPushNotificationConfigs(
    request: WithId<ListTaskPushNotificationConfigsRequest, 'taskId'>,
    options?: CallOptions,
  ): Promise<ListTaskPushNotificationConfigsResponse> {
    return this.call('ListTaskPushNotificationConfigs', request, options);
  }

  /** DeleteTaskPushNotificationConfig. */
  async deleteTaskPushNotificationConfig(
    request: WithId<DeleteTaskPushNotificationConfigRequest, 'taskId' | 'id'>,
    options?: CallOptions,
  ): Promise<void> {
    await this.call('DeleteTaskPushNotificationConfig', request, options);
  }

  /** GetExtendedAgentCard: the card for an authenticated caller (send credentials with the `headers` option). */
  async getExtendedAgentCard(options?: CallOptions): Promise<AgentCard> {
    return checkCard(await this.call('GetExtendedAgentCard', {}, options), 'GetExtendedAgentCard');
  }
}
