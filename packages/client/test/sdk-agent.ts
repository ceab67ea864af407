// The official SDK (@a2a-js/sdk) serving a small agent on Express with both v1.0 bindings, for interop tests.
import { listen } from '@a2a/adapter-testsuite';
import { AGENT_CARD_PATH, Role, TaskState } from '@a2a-js/sdk';
import {
  AgentEvent,
  type AgentExecutor,
  DefaultRequestHandler,
  type ExecutionEventBus,
  InMemoryTaskStore,
  type RequestContext,
} from '@a2a-js/sdk/server';
import { agentCardHandler, jsonRpcHandler, restHandler, UserBuilder } from '@a2a-js/sdk/server/express';
import express from 'express';

const now = () => new Date().toISOString();
const text = (value: string) => ({
  content: { $case: 'text' as const, value },
  mediaType: 'text/plain',
  filename: '',
  metadata: undefined,
});

/** `hello` → a direct reply; `wait` → a working task until canceled; anything else → working, two chunks, done. */
class SdkAgent implements AgentExecutor {
  private readonly waiting = new Map<string, () => void>();

  async execute(ctx: RequestContext, bus: ExecutionEventBus): Promise<void> {
    const first = ctx.userMessage.parts[0]?.content;
    const input = first?.$case === 'text' ? first.value : '';
    const { taskId, contextId } = ctx;
    const status = (state: TaskState) => ({ state, timestamp: now(), message: undefined });
    if (input === 'hello') {
      bus.publish(
        AgentEvent.message({
          messageId: crypto.randomUUID(),
          role: Role.ROLE_AGENT,
          contextId,
          taskId: '',
          parts: [text('hello to you')],
          metadata: undefined,
          extensions: [],
          referenceTaskIds: [],
        }),
      );
      return;
    }
    const task = {
      id: taskId,
      contextId,
      status: status(TaskState.TASK_STATE_SUBMITTED),
      artifacts: [],
      history: [ctx.userMessage],
      metadata: undefined,
    };
    bus.publish(AgentEvent.task(task));
    bus.publish(
      AgentEvent.statusUpdate({ taskId, contextId, status: status(TaskState.TASK_STATE_WORKING), metadata: undefined }),
    );
    if (input === 'wait') {
      await new Promise<void>((resolve) => this.waiting.set(taskId, resolve));
      return;
    }
    for (let i = 0; i < 2; i++) {
      bus.publish(
        AgentEvent.artifactUpdate({
          taskId,
          contextId,
          artifact: {
            artifactId: 'out',
            name: 'out',
            description: '',
            parts: [text(`chunk ${i}`)],
            metadata: undefined,
            extensions: [],
          },
          append: i > 0,
          lastChunk: i === 1,
          metadata: undefined,
        }),
      );
    }
    bus.publish(
      AgentEvent.statusUpdate({
        taskId,
        contextId,
        status: status(TaskState.TASK_STATE_COMPLETED),
        metadata: undefined,
      }),
    );
  }

  async cancelTask(taskId: string, bus: ExecutionEventBus): Promise<void> {
    bus.publish(
      AgentEvent.statusUpdate({
        taskId,
        contextId: '',
        status: { state: TaskState.TASK_STATE_CANCELED, timestamp: now(), message: undefined },
        metadata: undefined,
      }),
    );
    this.waiting.get(taskId)?.();
  }
}

/** The SDK's server at 127.0.0.1:0: the card at the origin, JSON-RPC at /rpc, HTTP+JSON at /rest. */
export async function startSdkAgent() {
  const app = express();
  const { url, close } = await listen(app);
  const card = {
    name: 'SDK agent',
    description: 'The official SDK serving the client tests',
    version: '1.0.0',
    documentationUrl: '',
    supportedInterfaces: [
      { url: `${url}/rpc`, protocolBinding: 'JSONRPC', tenant: '', protocolVersion: '1.0' },
      { url: `${url}/rest`, protocolBinding: 'HTTP+JSON', tenant: '', protocolVersion: '1.0' },
    ],
    capabilities: { streaming: true, pushNotifications: false, extensions: [], extendedAgentCard: false },
    securitySchemes: {},
    securityRequirements: [],
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills: [
      {
        id: 'chunks',
        name: 'Chunks',
        description: 'Streams two chunks',
        tags: ['test'],
        examples: [],
        inputModes: ['text/plain'],
        outputModes: ['text/plain'],
        securityRequirements: [],
      },
    ],
    signatures: [],
  };
  const requestHandler = new DefaultRequestHandler(
    card as unknown as ConstructorParameters<typeof DefaultRequestHandler>[0],
    new InMemoryTaskStore(),
    new SdkAgent(),
  );
  app.use(`/${AGENT_CARD_PATH}`, agentCardHandler({ agentCardProvider: requestHandler }));
  app.use('/rpc', jsonRpcHandler({ requestHandler, userBuilder: UserBuilder.noAuthentication }));
  app.use('/rest', restHandler({ requestHandler, userBuilder: UserBuilder.noAuthentication }));
  return { url, close };
}
