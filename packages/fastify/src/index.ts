// @a2a/fastify, the Fastify 5 plugin: Fastify's `request`/`reply` ⇄ a Fetch `Request`/`Response` for the handler,
// through core's Node bridge (`@a2a/core/node`: `nodeWebRequest`, `writeNodeResponseAfterBurst` for event streams
// past the `onSend` hooks, `responseText`/`responseHeaders` for the answers Fastify sends); setup checks and the
// refusal of an undecodable path come from `@a2a/core/adapter`. `requestSource` gathers what the bridge needs from
// Fastify's request on its route, in its error handler and in `a2aFrameworkErrors`. Tests: packages/fastify/test/
// (`conformance.test.ts` runs @a2a/adapter-testsuite); `npx vitest run packages/fastify`.
import { type A2AHandlerOptions, type A2ARequestContext, createA2AHandler, type MountableHandler } from '@a2a/core';
import { basePathUnderPrefix, checkMountable, requestRefusal, type ToWebRequestOptions } from '@a2a/core/adapter';
import {
  drainRequest,
  joinRequestUrl,
  nodeResponseBody,
  nodeWebRequest,
  responseFrames,
  responseHeaders,
  responseText,
  writeNodeResponseAfterBurst,
} from '@a2a/core/node';
import type { FastifyError, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';

/** Fastify's request and reply, as the `context` hook receives them (with what your plugins add: `request.user`). */
export type { FastifyReply, FastifyRequest };

export interface A2AFastifyOptions {
  /** What `createA2AHandler()` returns (or another handler, e.g. `receiver.handler` of @a2a/webhook-receiver). */
  handler?: MountableHandler;
  /** Instead of `handler`: its options; the plugin makes it, logs through Fastify's logger and closes it on close. */
  agent?: A2AHandlerOptions;
  /** The A2A caller from your auth (e.g. `request.user` from @fastify/jwt): `{ user?: { id, scopes? }, tenant? }`. */
  context?: (
    request: FastifyRequest,
    reply: FastifyReply,
  ) => A2ARequestContext | undefined | Promise<A2ARequestContext | undefined>;
  /** Fastify's own route prefix: `{ prefix: '/a2a' }` mounts a handler without a `basePath` there. */
  prefix?: string;
}

const EMPTY = new Uint8Array(0);
type Refusal = (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => Promise<boolean>;
const refusalsBy = new WeakMap<object, Refusal[]>();

const plugin: FastifyPluginAsync<A2AFastifyOptions> = async (fastify, options) => {
  const a2a = options?.agent
    ? createA2AHandler({ onError: (error) => fastify.log.error({ err: error }, 'a2a'), ...options.agent })
    : options?.handler;
  checkMountable(a2a, 'a2aFastify: the plugin option `handler`');
  if ('close' in a2a && options.agent) fastify.addHook('onClose', () => (a2a as { close(): Promise<void> }).close());
  const { prefix } = fastify;
  const mount = a2a.mount;
  if (mount?.basePath && prefix) {
    throw basePathUnderPrefix('a2aFastify', mount.basePath, `register the plugin without a prefix ('${prefix}')`);
  }
  // This plugin's routes only (the context is encapsulated): the bytes as sent (after the app's preParsing hooks), for
  // core to read; Fastify's refusals of them (over `bodyLimit`, a bad Content-Length or Content-Type) answered the
  // A2A way by the error handler below, every other error left to the app's.
  fastify.removeAllContentTypeParsers();
  fastify.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
  fastify.setErrorHandler(async (error, request, reply) => {
    const code = String((error as { code?: unknown }).code);
    if (!code.startsWith('FST_ERR_CTP_')) throw error;
    reply.removeHeader('connection'); // Fastify closes after a refused body: core drains it instead
    if (!(await serve(request, reply, requestSource(request, error as FastifyError)))) throw error;
  });
  /**
   * Answers the request, or `false` when the path is not the handler's. Not an async function, nor is `route`: without
   * a `context` hook the handler's promise with the answer sent in its `then`, and no `reply` (a thenable) returned for
   * Fastify to await (two async frames and three microtask hops per request less, docs/performance.md "SendMessage CPU
   * on Fastify and the Node bridge, twenty-third session").
   */
  const serve = (request: FastifyRequest, reply: FastifyReply, source: ToWebRequestOptions): Promise<boolean> => {
    const web = nodeWebRequest(request.raw, reply.raw, source);
    if (options.context) return serveWithContext(request, reply, web);
    return a2a.handle(web, handleOptions(request, {})).then((response) => answer(request, reply, response));
  };
  const serveWithContext = async (request: FastifyRequest, reply: FastifyReply, web: Request) => {
    const context = (await options.context?.(request, reply)) ?? {};
    return answer(request, reply, await a2a.handle(web, handleOptions(request, context)));
  };
  const handleOptions = (request: FastifyRequest, context: A2ARequestContext) => {
    const path = request.url.split('?', 1)[0] ?? '/';
    return { pathname: path.slice(prefix.length), context };
  };
  const answer = (request: FastifyRequest, reply: FastifyReply, response: Response | undefined) => {
    if (!response) return false;
    const raw = request.raw;
    // Answered before the body was read (413): keep the connection usable.
    if (!raw.readableEnded && !raw.destroyed) return drainRequest(raw).then(() => send(reply, response));
    return send(reply, response);
  };
  const send = (reply: FastifyReply, response: Response): true | Promise<true> => {
    // The lazy responses' header record as it is: reading `response.headers` builds undici's Headers (~2 µs).
    const headers = responseHeaders(response);
    if (responseFrames(response) || String(headers['content-type']).startsWith('text/event-stream')) {
      // Events go straight to the socket (with backpressure), past onSend hooks that would buffer them (compression).
      reply.hijack();
      for (const [name, value] of Object.entries(reply.getHeaders()))
        if (value !== undefined) reply.raw.setHeader(name, value);
      // Written after the agent's burst (one over by then is one body, one socket write: docs/performance.md, "Streams
      // as one write on Express, Fastify and the Node bridge"); not awaited, so this frame, which holds the request and
      // its body, ends now rather than when the stream does.
      writeNodeResponseAfterBurst(reply.raw, response);
      return true;
    }
    reply.code(response.status).headers(headers);
    const text = response.status === 204 || response.status === 304 ? undefined : responseText(response);
    if (text !== undefined) {
      reply.send(text);
      return true;
    }
    return nodeResponseBody(response).then((body) => {
      reply.send(body);
      return true as const;
    });
  };
  // Resolves to the reply (a thenable: Fastify waits for it to be sent) while an async `onSend` hook (compression)
  // still holds the answer or after `callNotFound`; to nothing once it was sent (no thenable job to settle).
  const route = (request: FastifyRequest, reply: FastifyReply) =>
    serve(request, reply, requestSource(request)).then((served) =>
      !served ? reply.callNotFound() : reply.sent ? undefined : reply,
    );
  // Paths Fastify's router cannot decode never reach a route: `a2aFrameworkErrors` asks each mount.
  const refusals = refusalsBy.get(fastify.server) ?? [];
  refusalsBy.set(fastify.server, refusals);
  refusals.push((error, request, reply) => serve(request, reply, requestSource(request, error)));
  const paths = mount?.basePath ? [mount.basePath, `${mount.basePath}/*`] : ['/', '/*'];
  for (const url of paths) fastify.all(url, route);
  for (const url of mount?.basePath ? mount.rootPaths : []) fastify.get(url, route);
};

/**
 * What core's bridge needs from Fastify's request: its public URL (Fastify's `trustProxy` decides) and what became of
 * its body, by the error Fastify raised for it: none (the route), the bytes this plugin's parser kept (nothing parsed:
 * Fastify saw no body); `FST_ERR_CTP_*` (the error handler), Fastify's refusal of the body (413/400 the A2A way) and
 * the `rawBody` an app's `preParsing` hook kept, but for a Content-Type Fastify cannot parse, which leaves the body
 * unread (core reads it and echoes the JSON-RPC id); `FST_ERR_BAD_URL` (`a2aFrameworkErrors`), the refusal of a path
 * Fastify could not decode.
 */
function requestSource(request: FastifyRequest, error?: FastifyError): ToWebRequestOptions {
  const url = joinRequestUrl(request.protocol, request.host, request.url);
  if (error === undefined) return { url, rawBody: request.body ?? EMPTY };
  if (error.code === 'FST_ERR_BAD_URL') return { url, refusal: requestRefusal('path') };
  const rawBody = (request as { rawBody?: unknown }).rawBody;
  return { url, rawBody, bodyError: error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE' ? undefined : error };
}

/**
 * The A2A routes as a Fastify 5 plugin: `app.register(a2aFastify, { handler })` for a handler with a `basePath` (card
 * at the origin's `/.well-known/`), or `app.register(a2aFastify, { handler, prefix: '/a2a' })` for a prefix-only
 * mount. Encapsulated (its body parsing stays on its routes); paths the handler does not own get Fastify's 404.
 */
export const a2aFastify = fp(plugin, { name: '@a2a/fastify', fastify: '5.x', encapsulate: true });
export default a2aFastify;

/**
 * For `Fastify({ frameworkErrors: a2aFrameworkErrors })`: Fastify refuses a path it cannot decode (`/tasks/%zz`)
 * before any route or plugin runs; with this, such a path under an A2A mount gets the A2A 400, any other path and
 * error Fastify's own answer.
 */
export async function a2aFrameworkErrors(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  if (error.code === 'FST_ERR_BAD_URL') {
    for (const refuse of refusalsBy.get(request.server.server) ?? []) if (await refuse(error, request, reply)) return;
  }
  reply.code(error.statusCode ?? 400).send(error);
}
