// `@a2a/sdk-compat`: existing `@a2a-js/sdk` 1.x agents on `@a2a/core` and every adapter. 0.3.x executors:
// `@a2a/sdk-compat/v0.3`. The Express look-alikes (`jsonRpcHandler`, `restHandler`, `agentCardHandler`):
// `@a2a/sdk-compat/express`.

export { InMemoryTaskStore } from '@a2a/core';
export { CompatRequestHandler } from './compat-handler.js';
export { DefaultRequestHandler, type DefaultRequestHandlerOptions } from './default-request-handler.js';
export type { IgnoredEventReporter } from './event-applier.js';
export { type FromSdkExecutorOptions, fromSdkExecutor } from './from-sdk-executor.js';
export { fromSdkPushStore } from './push-store.js';
export { type SdkUserBuilder, sdkContext } from './sdk-context.js';
export type { SdkExecutorOptions } from './sdk-execution.js';
export { SDK_USER_KEY, type SdkUser } from './sdk-user.js';
