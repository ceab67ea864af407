// `@a2a/sdk-compat/v0.3`: `@a2a-js/sdk` 0.3.x executors on `@a2a/core` and every adapter, served on v1.0 and v0.3
// wires alike. Needs no `@a2a-js/sdk` at run time. The Express look-alikes: `@a2a/sdk-compat/v0.3/express`.

export { InMemoryTaskStore } from '@a2a/core';
export { CompatRequestHandler } from '../compat-handler.js';
export { type SdkUserBuilder, sdkContext } from '../sdk-context.js';
export { SDK_USER_KEY, type SdkUser } from '../sdk-user.js';
export {
  DefaultRequestHandler,
  type DefaultRequestHandlerOptions,
  type V03AgentCard,
} from './default-request-handler.js';
export { type FromSdkV03ExecutorOptions, fromSdkV03Executor } from './from-sdk-v03-executor.js';
export { SdkV03CallContext, type SdkV03EventBus, type SdkV03Executor, SdkV03RequestContext } from './sdk-v03-types.js';
