import type { A2AHandlerOptions, AgentCardInput } from '@a2a/core';
import type * as sdk from '@a2a-js/sdk';
import {
  type AgentExecutor,
  type ExtendedAgentCardProvider,
  InMemoryPushNotificationStore,
  type PushNotificationStore,
  ServerCallContext,
} from '@a2a-js/sdk/server';
import { CompatRequestHandler } from './compat-handler.js';
import { type FromSdkExecutorOptions, fromSdkExecutor } from './from-sdk-executor.js';
import { fromSdkPushStore } from './push-store.js';
import { fromSdkCard, toSdkCard } from './sdk-codec.js';
import { SDK_USER_KEY, type SdkUser } from './sdk-user.js';

/** Our options beside the SDK's positional ones (the SDK's own `options` object is accepted and ignored). */
export type DefaultRequestHandlerOptions = Partial<A2AHandlerOptions> & { executor?: FromSdkExecutorOptions };

/**
 * A look-alike of `@a2a-js/sdk/server`'s `DefaultRequestHandler` with the same positional constructor, running the
 * SDK executor on our engine. The SDK's `InMemoryTaskStore` and `InMemoryPushNotificationStore` become ours; another
 * SDK push store is used through {@link fromSdkPushStore}; a push sender turns on our delivery (SSRF guard, retries);
 * the event bus manager and card signature generator are not used (see the README).
 */
export class DefaultRequestHandler extends CompatRequestHandler {
  constructor(
    agentCard: sdk.AgentCard,
    taskStore: unknown,
    agentExecutor: AgentExecutor,
    _eventBusManager?: unknown,
    pushNotificationStore?: PushNotificationStore,
    pushNotificationSender?: unknown,
    extendedAgentCardProvider?: sdk.AgentCard | ExtendedAgentCardProvider,
    _agentCardSignatureGenerator?: unknown,
    options?: DefaultRequestHandlerOptions | Record<string, unknown>,
  ) {
    const { executor: executorOptions, ...handlerOptions } = ours(options);
    super({
      card: fromSdkCard(agentCard) as AgentCardInput,
      taskStore,
      executor: (store) => fromSdkExecutor(agentExecutor, { ...executorOptions, taskStore: store }),
      // The SDK's own in-memory push store (exactly it, not a subclass) is replaced by our task store's.
      pushConfigStore:
        pushNotificationStore &&
        Object.getPrototypeOf(pushNotificationStore) !== InMemoryPushNotificationStore.prototype
          ? fromSdkPushStore(pushNotificationStore)
          : undefined,
      pushSender: pushNotificationSender !== undefined,
      extendedCard: extendedAgentCardProvider && extendedCardOf(extendedAgentCardProvider),
      options: handlerOptions,
    });
  }

  /** As the SDK's: the public card (as the SDK's types), e.g. for `agentCardHandler({ agentCardProvider })`. */
  async getAgentCard(): Promise<sdk.AgentCard> {
    return toSdkCard(this.publicCard());
  }
}

function extendedCardOf(provider: sdk.AgentCard | ExtendedAgentCardProvider) {
  return async (user: Record<string, unknown>): Promise<AgentCardInput> => {
    const sdkUser = user[SDK_USER_KEY] as (SdkUser & ServerCallContext['user']) | undefined;
    const card =
      typeof provider === 'function'
        ? await provider(new ServerCallContext(sdkUser ? { user: sdkUser } : {}))
        : provider;
    return fromSdkCard(card) as AgentCardInput;
  };
}

/** The SDK's own options (`keepBusAliveStates`, `validateInputModes`) have no meaning here. */
function ours(
  options: DefaultRequestHandlerOptions | Record<string, unknown> | undefined,
): DefaultRequestHandlerOptions {
  if (!options) return {};
  const { keepBusAliveStates: _keep, validateInputModes: _validate, ...rest } = options as Record<string, unknown>;
  return rest as DefaultRequestHandlerOptions;
}
