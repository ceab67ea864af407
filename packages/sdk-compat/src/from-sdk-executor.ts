import type { AgentContext, AgentExecutor, TaskStore } from '@a2a/core';
import * as sdk from '@a2a-js/sdk';
import {
  type AgentExecutionEvent,
  RequestContext,
  type AgentExecutor as SdkAgentExecutor,
  ServerCallContext,
  UnauthenticatedUser,
} from '@a2a-js/sdk/server';
import { CompatEventBus } from './compat-event-bus.js';
import { referenceTasks } from './reference-tasks.js';
import { fromSdkEvent, toSdkMessage, toSdkTask } from './sdk-codec.js';
import { runSdkExecution, type SdkExecutorOptions } from './sdk-execution.js';
import { sdkState, sdkUserOf } from './sdk-user.js';

export interface FromSdkExecutorOptions extends SdkExecutorOptions {
  /** Where `requestContext.referenceTasks` are read from (the caller's own tasks only). Without it they stay unset. */
  taskStore?: TaskStore | undefined;
}

/**
 * An `@a2a-js/sdk` 1.x executor (`execute(requestContext, eventBus)`, `cancelTask(taskId, eventBus)`) as one of ours.
 * It receives the SDK's own `RequestContext` and `ServerCallContext`; what it publishes becomes the context's helpers
 * in publish order; CancelTask calls its `cancelTask` with the running execution's bus.
 */
export function fromSdkExecutor(executor: SdkAgentExecutor, options: FromSdkExecutorOptions = {}): AgentExecutor {
  return runSdkExecution<AgentExecutionEvent>(options, {
    makeBus: (sink) => new CompatEventBus<AgentExecutionEvent>((event) => sink(fromSdkEvent(event))),
    execute: async (ctx, bus) => executor.execute(await requestContextOf(ctx, options.taskStore), bus),
    cancel: (taskId, bus) => executor.cancelTask(taskId, bus),
  });
}

async function requestContextOf(ctx: AgentContext, taskStore: TaskStore | undefined): Promise<RequestContext> {
  const call = new ServerCallContext({
    requestedExtensions: [...ctx.extensions],
    user: (sdkUserOf(ctx) as ServerCallContext['user']) ?? new UnauthenticatedUser(),
    ...(ctx.tenant ? { tenant: ctx.tenant } : {}),
    requestedVersion: ctx.protocolVersion,
    state: sdkState(ctx),
  });
  // The SDK echoes only the extensions its executor activates; ours echoes every requested one it declares.
  for (const uri of ctx.extensions) ctx.declineExtension(uri);
  const activate = call.addActivatedExtension.bind(call);
  call.addActivatedExtension = (uri: string) => {
    activate(uri);
    ctx.activateExtension(uri);
  };
  const request = sdk.SendMessageRequest.fromJSON({
    message: ctx.message,
    ...(ctx.configuration ? { configuration: ctx.configuration } : {}),
    ...(ctx.metadata ? { metadata: ctx.metadata } : {}),
    ...(ctx.tenant ? { tenant: ctx.tenant } : {}),
  });
  // The message as sent (ProtoJSON), so the executor sees every field the client set.
  request.message = toSdkMessage(ctx.message);
  const references = await referenceTasks(ctx, taskStore);
  return new RequestContext(
    request,
    ctx.taskId,
    ctx.contextId,
    call,
    ctx.task ? toSdkTask(ctx.task) : undefined,
    references?.map(toSdkTask),
  );
}
