// @a2a/hapi, the Hapi 21 plugin: Hapi's `request`/`h` ⇄ a Fetch `Request`/`Response` for the handler, through core's
// Node bridge (`@a2a/core/node`: `nodeWebRequest`, and `nodeResponseBody`/`responseHeaders` for the answers Hapi sends,
// or `writeNodeResponseAfterBurst` for event streams; a ready answer nothing in the server acts on goes out directly,
// direct-answer.ts); setup checks and the refusal of an undecodable path come from
// `@a2a/core/adapter`. Hapi registers routes by path, so the plugin reads `handler.mount`. `requestSource` gathers what
// the bridge needs from Hapi's request (the public URL, a `payload: 'data'` body, Hapi's payload error, a refusal).
// Tests: packages/hapi/test/ (`conformance.test.ts` runs @a2a/adapter-testsuite); `npx vitest run packages/hapi`.
import { PassThrough, pipeline, Readable } from 'node:stream';
import type { A2AError, A2ARequestContext, MountableHandler } from '@a2a/core';
import { basePathUnderPrefix, checkMountable, requestRefusal, type ToWebRequestOptions } from '@a2a/core/adapter';
import {
  drainRequest,
  nodeResponseBody,
  nodeWebRequest,
  requestUrl,
  responseFrames,
  responseHeaders,
  writeNodeResponseAfterBurst,
} from '@a2a/core/node';
import { type Boom, notFound } from '@hapi/boom';
import type { Lifecycle, Plugin, Request, ResponseToolkit, ServerRoute } from '@hapi/hapi';
import { answerDirectly } from './direct-answer.js';

export interface A2AHapiOptions {
  /** What `createA2AHandler()` returns (or another handler, such as `receiver.handler` of @a2a/webhook-receiver). */
  handler: MountableHandler;
  /** The A2A caller from your auth (e.g. `request.auth.credentials`): `{ user?: { id, scopes? }, tenant? }`. */
  context?: (
    request: Request,
    h: ResponseToolkit,
  ) => A2ARequestContext | undefined | Promise<A2ARequestContext | undefined>;
  /** 'stream' (default): core reads the body and enforces its limit. 'data': Hapi buffers it first (its `maxBytes`). */
  payload?: 'stream' | 'data';
  /** Honour X-Forwarded-Proto/Host for the card's public URLs. Default false. */
  trustProxy?: boolean;
}

/** A stream that flushes Hapi's compressor after each chunk, so SSE events leave at once even when gzipped. */
class FlushingStream extends PassThrough {
  #compressor: { flush(): void } | undefined;
  setCompressor(compressor: { flush(): void }): void {
    this.#compressor = compressor;
  }
  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: (error?: Error | null, data?: Buffer) => void) {
    done(null, chunk);
    if (this.#compressor) setImmediate(() => this.#compressor?.flush());
  }
}

const noop = () => {};

/** The plugin's own `onPreResponse` functions (one per registration): they leave A2A answers alone. */
const ownExtensions = new WeakSet<object>();

/** Payload errors Hapi raised, kept from the route's `failAction` for its handler. */
const bodyErrors = new WeakMap<Request, Boom>();

/** The A2A routes as a Hapi 21 plugin; register it with `routes: { prefix }` to mount it. */
export const a2aHapi: Plugin<A2AHapiOptions> = {
  name: '@a2a/hapi',
  version: '0.1.0',
  requirements: { hapi: '>=21.0.0' },
  // One server may mount several handlers (an agent and a webhook receiver, or two agents under two prefixes).
  multiple: true,
  register(server, options) {
    checkMountable(options?.handler, 'a2aHapi: the plugin option `handler`');
    const prefix = server.realm.modifiers.route.prefix ?? '';
    const mount = options.handler.mount;
    if (mount?.basePath && prefix && prefix !== mount.basePath) {
      throw basePathUnderPrefix(
        'a2aHapi',
        mount.basePath,
        `register the plugin without routes.prefix ('${prefix}') or with the same prefix`,
      );
    }
    /**
     * The path below the prefix as the client sent it: Hapi's `request.path` decodes some escapes (`%3A` → `:`),
     * which changes an A2A path's meaning (a task id holding `:` read as a custom method).
     */
    const sentPath = (request: Request): string | undefined => {
      const target = request.raw.req.url ?? '';
      const query = target.indexOf('?');
      const sent = query < 0 ? target : target.slice(0, query);
      return sent === prefix || sent.startsWith(`${prefix}/`) ? sent.slice(prefix.length) : undefined;
    };
    /** The handler's answer as Hapi's response (or `h.abandon` for a stream), `undefined` when the path is not its own. */
    const serve = async (
      request: Request,
      h: ResponseToolkit,
      pathname: string,
      bodyError?: { status: number },
      refusal?: A2AError,
    ): Promise<Lifecycle.ReturnValue | undefined> => {
      const raw = request.raw;
      const web = nodeWebRequest(raw.req, raw.res, requestSource(request, options, bodyError, refusal));
      const context = (await options.context?.(request, h)) ?? {};
      const response = await options.handler.handle(web, { pathname, context });
      if (!response) return undefined;
      // Answered before the body arrived (413, 405...): Hapi would close the connection; read the rest instead. A
      // request Node has whole (`complete`: a GET, a body core read) is not drained: Hapi keeps the connection for it
      // (its check is the stream's `ended`, set with `complete`), and waiting for the unread stream's `end` costs
      // listeners and a turn per card GET (docs/performance.md, "Per request (issue 39)", the slower frameworks).
      if (!raw.req.complete) await drainRequest(raw.req);
      if (responseFrames(response)) {
        // Events go straight to the socket, batched per turn, instead of through Hapi's stream pipe; a stream the
        // agent has finished by the end of its burst is one body (docs/performance.md, "Koa and Hapi streams").
        writeNodeResponseAfterBurst(raw.res, response);
        return h.abandon;
      }
      // A ready answer nothing else in the server would see or change: written at once (direct-answer.ts).
      if (answerDirectly(request, response, ownExtensions)) return h.abandon;
      const content = await nodeResponseBody(response);
      const body =
        content instanceof Readable ? pipeline(content, new FlushingStream(), () => {}) : (content ?? undefined);
      const out = h.response(body).code(response.status);
      const headers = responseHeaders(response);
      for (const name in headers) {
        const value = headers[name] as string | string[];
        if (typeof value === 'string') out.header(name, value);
        else for (const each of value) out.header(name, each, { append: true }); // Set-Cookie
      }
      return out;
    };
    // Hapi answers a path it cannot decode (`%zz`) itself, before any route: on the handler's paths, the A2A 400
    // instead of Boom's body. Nothing runs (no route, so no route auth either): the handler only answers the refusal.
    // An app route's own errors are not touched (their route is the app's, not Hapi's internal one).
    const refusePath: Lifecycle.Method = async (request, h) => {
      const response = request.response;
      if (!('isBoom' in response) || !response.isBoom || (request.route.method as string) !== '_special') {
        return h.continue;
      }
      if (response.output.statusCode !== 400) return h.continue;
      const pathname = sentPath(request);
      if (pathname === undefined) return h.continue;
      return (await serve(request, h, pathname, undefined, requestRefusal('path'))) ?? h.continue;
    };
    ownExtensions.add(refusePath);
    server.ext('onPreResponse', refusePath);
    const route = (method: ServerRoute['method'], path: string): ServerRoute => ({
      method,
      path,
      options: {
        // GET routes (the root card) take no payload settings. 'data': Hapi reads the payload through a tap, so
        // when a chunked body outgrows `maxBytes` its reader destroys the tap, not the request: Hapi then drains the
        // request and the A2A 413 goes out on a connection that stays open (else the client gets no answer at all).
        ...(method !== 'GET' &&
          (options.payload ?? 'stream') === 'data' && {
            ext: {
              onPreAuth: {
                method: (request: Request, h: ResponseToolkit) => {
                  request.events.on('peek', noop);
                  return h.continue;
                },
              },
            },
          }),
        ...(method === 'GET'
          ? {}
          : {
              payload: {
                parse: false,
                output: options.payload ?? 'stream',
                // Core checks the Content-Type itself: Hapi would refuse one it cannot parse (`;`) and discard the
                // body, so the A2A error could not echo the JSON-RPC id.
                override: 'application/octet-stream',
                // Hapi could not read the payload ('data' over `maxBytes`, an unknown Content-Encoding): the
                // handler decides, so A2A paths answer it the A2A way (413, 415), other paths get Hapi's own error.
                failAction: (request: Request, h: ResponseToolkit, error?: Error) => {
                  bodyErrors.set(request, error as Boom);
                  return h.continue;
                },
              },
            }),
        async handler(request, h) {
          const failed = bodyErrors.get(request);
          // Rewritten onto the prefix (the root documents) or sent in absolute form: Hapi's path.
          const pathname = sentPath(request) ?? request.path.slice(prefix.length);
          const response = await serve(request, h, pathname, failed && { status: failed.output?.statusCode ?? 400 });
          if (!response) throw failed ?? notFound(); // what Hapi answers for a path without a route
          return response;
        },
      },
    });
    if (!mount?.basePath) server.route(route('*', '/{path*}'));
    else if (prefix) {
      // Registered under its base path: Hapi keeps a plugin's routes inside its prefix, so the root documents are
      // rewritten onto the prefixed route (unless the app has a route of its own there).
      server.route(route('*', '/{path*}'));
      const rootPaths = new Set(mount.rootPaths);
      server.ext('onRequest', (request, h) => {
        const method = request.method === 'head' ? 'get' : request.method;
        if (method === 'get' && rootPaths.has(request.path) && !server.match('get', request.path)) {
          request.setUrl(`${prefix}${request.path}${request.url.search}`);
        }
        return h.continue;
      });
    } else {
      // Only the handler's own paths: the app's other routes (and its own catch-all) stay its own.
      server.route([
        route('*', mount.basePath),
        route('*', `${mount.basePath}/{path*}`),
        ...mount.rootPaths.map((p) => route('GET', p)),
      ]);
    }
  },
};

/**
 * What core's bridge needs from Hapi's request: the public URL, the bytes Hapi read when the route's payload is
 * `'data'` (a stream payload is ignored and the request read), the status of a payload Hapi could not read (from the
 * route's `failAction`), and the refusal of a path Hapi could not decode (from `onPreResponse`).
 */
function requestSource(
  request: Request,
  options: A2AHapiOptions,
  bodyError: { status: number } | undefined,
  refusal: A2AError | undefined,
): ToWebRequestOptions {
  const url = requestUrl(request.raw.req, options.trustProxy ?? false);
  return { url, rawBody: request.payload, bodyError, refusal };
}
