import type { AgentContext, AgentExecutor, TaskStore } from '@a2a/core';
import { toV03Message, toV03Task, type V03StreamResult } from '@a2a/core/internal';
import { CompatEventBus } from '../compat-event-bus.js';
import { referenceTasks } from '../reference-tasks.js';
import { runSdkExecution, type SdkExecutorOptions } from '../sdk-execution.js';
import { sdkUserOf } from '../sdk-user.js';
import { SdkV03CallContext, type SdkV03Executor, SdkV03RequestContext, UnauthenticatedUser } from './sdk-v03-types.js';
import { fromV03Event } from './v03-events.js';

export interface FromSdkV03ExecutorOptions extends SdkExecutorOptions {
  /** Where `requestContext.referenceTasks` are read from (the caller's own tasks only). Without it they stay unset. */
  taskStore?: TaskStore | undefined;
}

/**
 * An `@a2a-js/sdk` 0.3.x executor as one of ours, served on v1.0 and v0.3 wires alike: it sees v0.3 objects
 * (`kind`-tagged, `role: 'user'`), and what it publishes is translated to v1.0 in publish order (`final` is implied by
 * the state). Needs no `@a2a-js/sdk` at run time.
 */
export function fromSdkV03Executor(executor: SdkV03Executor, options: FromSdkV03ExecutorOptions = {}): AgentExecutor {
  return runSdkExecution<V03StreamResult>(options, {
    makeBus: (applier) => new CompatEventBus<V03StreamResult>((event) => applier.apply(fromV03Event(event))),
    execute: async (ctx, bus) => executor.execute(await requestContextOf(ctx, options.taskStore), bus),
    cancel: (taskId, bus) => executor.cancelTask(taskId, bus),
  });
}

async function requestContextOf(ctx: AgentContext, store: TaskStore | undefined): Promise<SdkV03RequestContext> {
  // The 0.3 SDK echoes only the extensions its executor activates.
  for (const uri of ctx.extensions) ctx.declineExtension(uri);
  // As the SDK's servers: without a `UserBuilder` (e.g. `sdkContext()` on any adapter) the caller is anonymous.
  const user = sdkUserOf(ctx) ?? new UnauthenticatedUser();
  const call = new SdkV03CallContext([...ctx.extensions], user, (uri) => ctx.activateExtension(uri));
  const references = (await referenceTasks(ctx, store))?.map(toV03Task);
  return new SdkV03RequestContext(
    toV03Message(ctx.message),
    ctx.taskId,
    ctx.contextId,
    ctx.task && toV03Task(ctx.task),
    references,
    call,
  );
}
