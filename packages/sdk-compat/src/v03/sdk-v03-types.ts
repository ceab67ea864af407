import type { V03Message, V03StreamResult, V03Task } from '@a2a/core/internal';
import type { SdkUser } from '../sdk-user.js';

/** The 0.3.x SDK's anonymous caller: the user an executor sees when no `UserBuilder` named one. */
export class UnauthenticatedUser implements SdkUser {
  get isAuthenticated(): boolean {
    return false;
  }
  get userName(): string {
    return '';
  }
}

/** The 0.3.x `ServerCallContext` surface an executor reads (an interface, so the SDK's own class fits it too). */
export interface SdkV03CallContextView {
  readonly requestedExtensions: string[] | undefined;
  readonly user: SdkUser | undefined;
  readonly activatedExtensions: string[] | undefined;
  addActivatedExtension(uri: string): void;
}

/** The 0.3.x `ServerCallContext` an executor gets here. */
export class SdkV03CallContext implements SdkV03CallContextView {
  private activated: string[] | undefined;

  constructor(
    readonly requestedExtensions: string[] | undefined,
    readonly user: SdkUser | undefined,
    private readonly onActivate: (uri: string) => void,
  ) {}

  get activatedExtensions(): string[] | undefined {
    return this.activated;
  }

  addActivatedExtension(uri: string): void {
    if (this.activated?.includes(uri)) return;
    this.activated = [...(this.activated ?? []), uri];
    this.onActivate(uri);
  }
}

/**
 * The 0.3.x `RequestContext` (the same fields; a class of this package, so `instanceof` the SDK's does not hold). Its
 * `context` is typed by its surface, so an executor declared with the SDK's own types is accepted.
 */
export class SdkV03RequestContext {
  constructor(
    readonly userMessage: V03Message,
    readonly taskId: string,
    readonly contextId: string,
    readonly task?: V03Task,
    readonly referenceTasks?: V03Task[],
    readonly context?: SdkV03CallContextView,
  ) {}
}

/** The 0.3.x `ExecutionEventBus`. */
export interface SdkV03EventBus {
  publish(event: V03StreamResult): void;
  on(eventName: 'event' | 'finished', listener: (event: V03StreamResult) => void): this;
  off(eventName: 'event' | 'finished', listener: (event: V03StreamResult) => void): this;
  once(eventName: 'event' | 'finished', listener: (event: V03StreamResult) => void): this;
  removeAllListeners(eventName?: 'event' | 'finished'): this;
  finished(): void;
}

/** An `@a2a-js/sdk` 0.3.x `AgentExecutor` (methods, so the SDK's own declarations are accepted as they are). */
export interface SdkV03Executor {
  execute(requestContext: SdkV03RequestContext, eventBus: SdkV03EventBus): Promise<void>;
  cancelTask(taskId: string, eventBus: SdkV03EventBus): Promise<void>;
}
