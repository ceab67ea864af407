import type { A2AHandlerOptions, A2AUser, AgentCardInput } from '@a2a/core';
import { fromV03AgentCard, toV03AgentCard } from '@a2a/core/internal';
import { CompatRequestHandler } from '../compat-handler.js';
import { SDK_USER_KEY, type SdkUser } from '../sdk-user.js';
import { type FromSdkV03ExecutorOptions, fromSdkV03Executor } from './from-sdk-v03-executor.js';
import { SdkV03CallContext, type SdkV03Executor } from './sdk-v03-types.js';

export type DefaultRequestHandlerOptions = Partial<A2AHandlerOptions> & { executor?: FromSdkV03ExecutorOptions };

/** A v0.3 agent card (the 0.3.x SDK's `AgentCard`). */
export type V03AgentCard = object;

type V03ExtendedCardProvider = V03AgentCard | ((context?: SdkV03CallContext) => Promise<V03AgentCard>);

/**
 * A look-alike of `@a2a-js/sdk` 0.3.x's `DefaultRequestHandler`, same positional constructor, with a v0.3 card.
 * The card is served as v1.0 and, to v0.3 clients, as v0.3. The SDK's in-memory stores become ours; the event bus
 * manager is not used; a push store or sender turns on our push delivery (SSRF guard, retries).
 */
export class DefaultRequestHandler extends CompatRequestHandler {
  constructor(
    agentCard: V03AgentCard,
    taskStore: unknown,
    agentExecutor: SdkV03Executor,
    _eventBusManager?: unknown,
    pushNotificationStore?: unknown,
    pushNotificationSender?: unknown,
    extendedAgentCardProvider?: V03ExtendedCardProvider,
    options: DefaultRequestHandlerOptions = {},
  ) {
    const { executor: executorOptions, ...handlerOptions } = options;
    super({
      card: fromV03AgentCard(agentCard) as AgentCardInput,
      taskStore,
      executor: (store) => fromSdkV03Executor(agentExecutor, { ...executorOptions, taskStore: store }),
      pushSender: pushNotificationSender !== undefined || pushNotificationStore !== undefined,
      extendedCard: extendedAgentCardProvider && extendedCardOf(extendedAgentCardProvider),
      options: handlerOptions,
    });
  }

  /** As the SDK's: the public card, as v0.3. */
  async getAgentCard(): Promise<Record<string, unknown>> {
    return toV03AgentCard(this.publicCard()) as Record<string, unknown>;
  }
}

function extendedCardOf(provider: V03ExtendedCardProvider) {
  return async (user: A2AUser): Promise<AgentCardInput> => {
    const sdkUser = user[SDK_USER_KEY] as SdkUser | undefined;
    const card =
      typeof provider === 'function' ? await provider(new SdkV03CallContext([], sdkUser, () => {})) : provider;
    return fromV03AgentCard(card) as AgentCardInput;
  };
}
