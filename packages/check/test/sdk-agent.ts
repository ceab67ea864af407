// The official SDK's server (@a2a-js/sdk, a dev dependency) with a small agent on Express and its gRPC service, the
// three v1.0 bindings, to show what a2a-check reports about an agent we did not write (the README's example report).
import { listen } from '@a2a/adapter-testsuite';
import { AGENT_CARD_PATH, TaskState } from '@a2a-js/sdk';
import {
  AgentEvent,
  type AgentExecutor,
  DefaultRequestHandler,
  type ExecutionEventBus,
  InMemoryTaskStore,
  type RequestContext,
} from '@a2a-js/sdk/server';
import { agentCardHandler, jsonRpcHandler, restHandler, UserBuilder } from '@a2a-js/sdk/server/express';
import { A2AService, grpcService } from '@a2a-js/sdk/server/grpc';
import * as grpc from '@grpc/grpc-js';
import express from 'express';

/** Every message: a task that is at once completed with a reply. */
class ReplyAgent implements AgentExecutor {
  async execute(ctx: RequestContext, bus: ExecutionEventBus): Promise<void> {
    const { taskId, contextId } = ctx;
    const status = (state: TaskState) => ({ state, timestamp: new Date().toISOString(), message: undefined });
    bus.publish(
      AgentEvent.task({
        id: taskId,
        contextId,
        status: status(TaskState.TASK_STATE_SUBMITTED),
        artifacts: [],
        history: [ctx.userMessage],
        metadata: undefined,
      }),
    );
    bus.publish(
      AgentEvent.statusUpdate({
        taskId,
        contextId,
        status: status(TaskState.TASK_STATE_COMPLETED),
        metadata: undefined,
      }),
    );
  }

  async cancelTask(): Promise<void> {}
}

/** The SDK's server at 127.0.0.1:0: the card at the origin, JSON-RPC at /rpc, HTTP+JSON at /rest; gRPC on its own port. */
export async function startSdkAgent() {
  const app = express();
  const listening = await listen(app);
  const { url } = listening;
  const grpcServer = new grpc.Server();
  const grpcPort = await new Promise<number>((resolve, reject) =>
    grpcServer.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (error, port) =>
      error ? reject(error) : resolve(port),
    ),
  );
  const card = {
    name: 'SDK agent',
    description: 'The official SDK server, checked by a2a-check',
    version: '1.0.0',
    documentationUrl: '',
    supportedInterfaces: [
      { url: `${url}/rpc`, protocolBinding: 'JSONRPC', tenant: '', protocolVersion: '1.0' },
      { url: `${url}/rest`, protocolBinding: 'HTTP+JSON', tenant: '', protocolVersion: '1.0' },
      { url: `127.0.0.1:${grpcPort}`, protocolBinding: 'GRPC', tenant: '', protocolVersion: '1.0' },
    ],
    capabilities: { streaming: true, pushNotifications: false, extensions: [], extendedAgentCard: false },
    securitySchemes: {},
    securityRequirements: [],
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills: [
      {
        id: 'reply',
        name: 'Reply',
        description: 'Completes every task at once',
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
    new ReplyAgent(),
  );
  app.use(`/${AGENT_CARD_PATH}`, agentCardHandler({ agentCardProvider: requestHandler }));
  app.use('/rpc', jsonRpcHandler({ requestHandler, userBuilder: UserBuilder.noAuthentication }));
  app.use('/rest', restHandler({ requestHandler, userBuilder: UserBuilder.noAuthentication }));
  grpcServer.addService(A2AService, grpcService({ requestHandler, userBuilder: UserBuilder.noAuthentication }));
  return {
    ...listening,
    close: async () => {
      grpcServer.forceShutdown();
      await listening.close();
    },
  };
}
