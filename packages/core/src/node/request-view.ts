import { delegateToReal } from '../http/delegate-to-real.js';
import { PREPARED } from '../http/prepared.js';
import { nativeClass } from '../native-class.js';
import type { Disconnect } from '../server/call-context.js';

/**
 * A `Request` for the Node bridge's fast path that costs what the handler reads: `method`, `url` and `headers` are
 * plain fields and the signal is made on first use. Everything else `Request` offers (body readers, `clone()`,
 * `cache`, ...) is answered by a real `Request` built on first use from the same parts, so code that treats it as a
 * normal Request (a `context` hook, a foreign handler) still works; `instanceof Request` holds. Building a real
 * Request up front (URL parsing, header validation, an AbortSignal of its own) cost more than the rest of a card GET.
 * See docs/performance.md, "Hot-path tricks".
 */
export interface RequestViewParts {
  method: string;
  url: string;
  headers: Headers;
  /** The request's abort signal (`disconnect.signal()`), made when first asked for. */
  disconnect: Disconnect;
  /** The whole body (or its reader), for the real Request when one is needed. */
  body: Uint8Array | (() => Promise<Uint8Array>) | undefined;
}

class NodeRequestView {
  readonly method: string;
  readonly url: string;
  readonly headers: Headers;
  // The side channel's slot (http/prepared.ts), the view's own from the start: `prepareRequest`'s assignment would
  // otherwise look for a setter up the prototype chain and name `Request` there (http/delegate-to-real.ts).
  [PREPARED]: unknown = undefined;
  readonly #parts: RequestViewParts;
  #real: Request | undefined;

  constructor(parts: RequestViewParts) {
    this.method = parts.method;
    this.url = parts.url;
    this.headers = parts.headers;
    this.#parts = parts;
  }

  get signal(): AbortSignal {
    return this.#parts.disconnect.signal();
  }

  /** The same request as a real Request (made once). */
  real(): Request {
    if (this.#real) return this.#real;
    const { body } = this.#parts;
    const init: RequestInit & { duplex?: 'half' } = { method: this.method, headers: this.headers, signal: this.signal };
    if (body instanceof Uint8Array) init.body = body as Uint8Array<ArrayBuffer>;
    else if (body) {
      init.body = new ReadableStream<Uint8Array>({
        async pull(controller) {
          controller.enqueue(await body());
          controller.close();
        },
      });
      init.duplex = 'half';
    }
    this.#real = new Request(this.url, init);
    return this.#real;
  }
}

// The class is named when someone reaches past the view, not before: naming `Request` makes Node 20 load undici
// (docs/performance.md, "Hot-path tricks"). Named members only: Request.prototype's symbols (its util.inspect hook)
// are not forwarded.
delegateToReal(
  NodeRequestView,
  () => nativeClass(Request),
  new Set(['method', 'url', 'headers']),
  Object.getOwnPropertyNames,
);

/** A request view (see {@link NodeRequestView}), typed as the `Request` it stands for. */
export function requestView(parts: RequestViewParts): Request {
  return new NodeRequestView(parts) as unknown as Request;
}
