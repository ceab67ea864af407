import type { A2AUser, CallContext } from './agent-executor.js';

type CallFields = Omit<CallContext, 'signal'>;

/**
 * The call of one HTTP request. Its `signal` is made on first read: the Node bridge's disconnect signal costs an
 * AbortSignal (~4 µs on Node 20) and a socket listener, and a blocking SendMessage never reads it. A class rather
 * than an object with an accessor: both `Object.defineProperty` and accessor literals cost about a microsecond.
 */
export class RequestCall implements CallContext {
  readonly user: A2AUser | undefined;
  readonly tenant: string | undefined;
  readonly extensions: readonly string[] | undefined;
  readonly lastEventId: string | undefined;
  readonly protocolVersion: string | undefined;
  readonly #makeSignal: () => AbortSignal;
  #signal: AbortSignal | undefined;

  constructor(fields: CallFields, makeSignal: () => AbortSignal) {
    this.user = fields.user;
    this.tenant = fields.tenant;
    this.extensions = fields.extensions;
    this.lastEventId = fields.lastEventId;
    this.protocolVersion = fields.protocolVersion;
    this.#makeSignal = makeSignal;
  }

  get signal(): AbortSignal {
    this.#signal ??= this.#makeSignal();
    return this.#signal;
  }

  /** The same call with some fields replaced, sharing the signal. */
  with(patch: CallFields): RequestCall {
    return new RequestCall({ ...this.fields(), ...patch }, () => this.signal);
  }

  private fields(): CallFields {
    const { user, tenant, extensions, lastEventId, protocolVersion } = this;
    return { user, tenant, extensions, lastEventId, protocolVersion };
  }
}

/** The call with some fields replaced; a {@link RequestCall}'s lazy `signal` stays lazy (a spread would drop it). */
export function extendCall(call: CallContext, patch: CallFields): CallContext {
  return call instanceof RequestCall ? call.with(patch) : { ...call, ...patch };
}
