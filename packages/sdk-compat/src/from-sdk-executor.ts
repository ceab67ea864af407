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
import { applySdkEvent, toSdkMessage, toSdkTask } from './sdk-codec.js';
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
    makeBus: (applier) => new CompatEventBus<AgentExecutionEvent>((event) => applySdkEvent(event, applier)),
    execute: (ctx, bus) => {
      const context = requestContextOf(ctx, options.taskStore);
      return context instanceof Promise
        ? context.then((c) => executor.execute(c, bus))
        : executor.execute(context, bus);
    },
    cancel: (taskId, bus) => executor.cancelTask(taskId, bus),
  });
}

/** Stateless, so one serves every request without a user (the SDK makes one per request). */
const UNAUTHENTICATED = new UnauthenticatedUser();

/** The SDK's request context; a promise only when the message refers to tasks that must be read first. */
function requestContextOf(
  ctx: AgentContext,
  taskStore: TaskStore | undefined,
): RequestContext | Promise<RequestContext> {
  // The SDK echoes only the extensions its executor activates; ours echoes every requested one it declares.
  for (const uri of ctx.extensions) ctx.declineExtension(uri);
  // What `sdk.SendMessageRequest.fromJSON` makes of our request, without the input object it would need first (one
  // built with conditional spreads cost a fresh hidden class per request on Node 20: docs/performance.md).
  const request: sdk.SendMessageRequest = {
    tenant: ctx.tenant ?? '',
    message: toSdkMessage(ctx.message),
    configuration: ctx.configuration ? sdk.SendMessageConfiguration.fromJSON(ctx.configuration) : undefined,
    metadata: ctx.metadata ?? undefined,
  };
  const task = ctx.task ? toSdkTask(ctx.task) : undefined;
  const references = referenceTasks(ctx, taskStore);
  if (!references) return sdkRequestContext(request, ctx, task, undefined);
  return references.then((tasks) => sdkRequestContext(request, ctx, task, tasks.map(toSdkTask)));
}

/** The SDK's call context for this request: its user, requested extensions, state; activations reach ours. */
function serverCallContext(ctx: AgentContext): ServerCallContext {
  const call = new ServerCallContext({
    requestedExtensions: [...ctx.extensions],
    user: (sdkUserOf(ctx) as ServerCallContext['user']) ?? UNAUTHENTICATED,
    ...(ctx.tenant ? { tenant: ctx.tenant } : {}),
    requestedVersion: ctx.protocolVersion,
    state: sdkState(ctx),
  });
  const activate = call.addActivatedExtension.bind(call);
  call.addActivatedExtension = (uri: string) => {
    activate(uri);
    ctx.activateExtension(uri);
  };
  return call;
}

/** Our context and the SDK call context made from it, on the request context (read by the shared `context` getter). */
const AGENT_CONTEXT = Symbol('@a2a/sdk-compat agent context');
const CALL_CONTEXT = Symbol('@a2a/sdk-compat call context');

type Mutable<T> = { -readonly [K in keyof T]: T[K] | undefined };

interface LazyRequestContext extends RequestContext {
  [AGENT_CONTEXT]: AgentContext;
  [CALL_CONTEXT]?: ServerCallContext;
}

/**
 * `context` as an own enumerable accessor, one getter shared by every request context. A fresh getter per request that
 * closed over our context (V8 also turns each such object into a dictionary) made the executions outlive young
 * collections on Node 20: ~3× the bytes promoted per scavenge, ~5 µs of GC per SendMessage. docs/performance.md,
 * "SDK executors through @a2a/sdk-compat".
 */
const CONTEXT_PROPERTY: PropertyDescriptor = {
  enumerable: true,
  get(this: LazyRequestContext): ServerCallContext {
    this[CALL_CONTEXT] ??= serverCallContext(this[AGENT_CONTEXT]);
    return this[CALL_CONTEXT];
  },
};

/**
 * `new RequestContext(...)` without its `structuredClone` of the request (3.6 µs a request; the request is made here
 * for this execution alone, so there is nothing to protect), and with its `context` made when first read (most
 * executors never read it). Same prototype, same fields: `instanceof` holds. docs/performance.md, "SDK executors
 * through @a2a/sdk-compat".
 */
function sdkRequestContext(
  request: sdk.SendMessageRequest,
  ctx: AgentContext,
  task: sdk.Task | undefined,
  referenceTasks: sdk.Task[] | undefined,
): RequestContext {
  // Stored one by one, in the constructor's order (a real one's own keys; request-context.e2e.test.ts compares them):
  // `Object.assign` from a temporary fields object measured 1–4 µs more per SendMessage on Node 20 (why not pinned
  // down). docs/performance.md, "SDK executors through @a2a/sdk-compat", fourth round.
  const requestContext = Object.create(RequestContext.prototype) as Mutable<LazyRequestContext>;
  requestContext.request = request;
  requestContext.taskId = ctx.taskId;
  requestContext.contextId = ctx.contextId;
  requestContext.task = task;
  requestContext.referenceTasks = referenceTasks;
  requestContext[AGENT_CONTEXT] = ctx;
  return Object.defineProperty(requestContext, 'context', CONTEXT_PROPERTY) as LazyRequestContext;
}
