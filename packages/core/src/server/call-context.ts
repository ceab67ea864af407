import { onAbort as onSignalAbort } from '../on-abort.js';
import type { TaskOwner } from '../store/task-store.js';
import type { A2AUser, CallContext } from './agent-executor.js';

type CallFields = Omit<CallContext, 'signal'>;

/** How a host tells that its client went away: an AbortSignal on demand, and optionally a cheaper listener hook. */
export interface Disconnect {
  signal(): AbortSignal;
  /** Runs `listener` once when the client goes away; returns the detach function. */
  onAbort?: ((listener: () => void) => () => void) | undefined;
}

/**
 * The call of one HTTP request. Its `signal` is made on first read: the Node bridge's disconnect signal costs an
 * AbortSignal (~4 µs on Node 20, several times that with its listener in a busy process) and a blocking SendMessage
 * never reads it; a stream only needs to hear of the disconnect ({@link onCallAbort}). A class rather than an
 * object with an accessor: both `Object.defineProperty` and accessor literals cost about a microsecond.
 */
export class RequestCall implements CallContext {
  readonly user: A2AUser | undefined;
  readonly tenant: string | undefined;
  readonly extensions: readonly string[] | undefined;
  readonly lastEventId: string | undefined;
  readonly protocolVersion: string | undefined;
  readonly state: Record<string, unknown> | undefined;
  /**
   * The headers the response will be built with, while it is not built yet (the executor's activateExtension and
   * declineExtension edit them); the object the transport already made, so it costs nothing.
   */
  readonly responseHeaders: Record<string, string> | undefined;
  readonly #disconnect: Disconnect;
  #signal: AbortSignal | undefined;

  constructor(fields: CallFields, disconnect: Disconnect, responseHeaders?: Record<string, string>) {
    this.user = fields.user;
    this.tenant = fields.tenant;
    this.extensions = fields.extensions;
    this.lastEventId = fields.lastEventId;
    this.protocolVersion = fields.protocolVersion;
    this.state = fields.state;
    this.responseHeaders = responseHeaders;
    this.#disconnect = disconnect;
  }

  get signal(): AbortSignal {
    this.#signal ??= this.#disconnect.signal();
    return this.#signal;
  }

  /** Runs `listener` once when the client goes away, through the host's hook while no signal was asked for. */
  onAbort(listener: () => void): () => void {
    if (this.#signal || !this.#disconnect.onAbort) return onSignalAbort(this.signal, listener);
    return this.#disconnect.onAbort(listener);
  }

  /** The same call with some fields replaced, sharing the disconnect. */
  with(patch: CallFields): RequestCall {
    return new RequestCall(
      { ...this.fields(), ...patch },
      { signal: () => this.signal, onAbort: (listener) => this.onAbort(listener) },
      this.responseHeaders,
    );
  }

  private fields(): CallFields {
    const { user, tenant, extensions, lastEventId, protocolVersion, state } = this;
    return { user, tenant, extensions, lastEventId, protocolVersion, state };
  }
}

/** The call with some fields replaced; a {@link RequestCall}'s lazy `signal` stays lazy (a spread would drop it). */
export function extendCall(call: CallContext, patch: CallFields): CallContext {
  return call instanceof RequestCall ? call.with(patch) : { ...call, ...patch };
}

/** The response headers an executor's extension choices go into: only an HTTP request's call has them. */
/** Scope key: tasks belong to a tenant and a caller. */
export const ownerOf = (call: CallContext): TaskOwner => `${call.tenant ?? ''}\u0000${call.user?.id ?? ''}`;

export function responseHeadersOf(call: CallContext): Record<string, string> | undefined {
  return call instanceof RequestCall ? call.responseHeaders : undefined;
}

/** Runs `listener` once when the call's client goes away (never for a call without a signal); returns the detach. */
export function onCallAbort(call: CallContext, listener: () => void): () => void {
  if (call instanceof RequestCall) return call.onAbort(listener);
  return call.signal ? onSignalAbort(call.signal, listener) : () => {};
}
