// @a2a/nestjs: what each platform does to a request before any route runs, made right for the A2A routes: on
// Express, body-parser and router errors reach core (`isBodyParserError` from `@a2a/core/node`); on Fastify, the A2A
// routes' bodies are left unparsed for core to read. Installed by a2a-module.ts at init. Tests:
// packages/nestjs/test/conformance.test.ts (the suite's parser and bad-input cases, both platforms).
import type { IncomingMessage } from 'node:http';
import { isBodyParserError } from '@a2a/core/node';

/** The parts of Express and Fastify used here (both are optional peers: no types imported from them). */
type Done = (error: Error | null, value?: unknown) => void;
interface ExpressApp {
  use(handler: (error: unknown, req: never, res: never, next: (error?: unknown) => void) => void): void;
}
interface FastifyRequestLike {
  raw: IncomingMessage;
  routeOptions?: { config?: { a2a?: unknown } };
}
interface FastifyApp {
  hasContentTypeParser(type: string): boolean;
  addContentTypeParser(type: string, parser: (req: unknown, payload: unknown, done: Done) => void): void;
  addHook(
    name: 'preParsing',
    hook: (req: FastifyRequestLike, reply: unknown, payload: unknown, done: Done) => void,
  ): void;
  addHook(name: 'preValidation', hook: (req: FastifyRequestLike, reply: unknown, done: Done) => void): void;
}

/**
 * Express: a body parser's error (malformed JSON, over its limit, a charset it refuses) and the router's for a path
 * it cannot decode (`%zz` in the catch-all's parameter) skip the routes, so the A2A paths get them here, after the
 * routes and before Nest's own error handler: core answers them the A2A way (the parser's error as the body, or
 * the path as it is), other paths pass them on. `serve` answers false when the path is not core's.
 */
export function routeParserErrors(
  app: ExpressApp,
  serve: (bodyError: unknown, req: never, res: never) => Promise<boolean>,
) {
  app.use((error, req, res, next) => {
    const bodyError = isBodyParserError(error);
    if (!bodyError && !(error instanceof URIError)) return next(error);
    serve(bodyError ? error : undefined, req, res).then((served) => served || next(error), next);
  });
}

/** The content type the A2A routes' bodies are parsed as on Fastify: by nobody. */
const UNPARSED = 'application/x-a2a-unparsed';

/**
 * Fastify parses every body before the route handler runs (and answers 415 or 400 itself), with parsers shared by
 * the whole app. On the A2A routes (marked through the route config) the body is left unread instead: the request
 * is routed to a parser that does nothing, core reads the stream (and enforces its own limits), and the real
 * Content-Type is back before the guards run. Core reads the raw header list, never this header.
 */
export function leaveA2ABodiesUnparsed(app: FastifyApp) {
  if (app.hasContentTypeParser(UNPARSED)) return;
  const declared = new WeakMap<IncomingMessage, string | undefined>();
  app.addContentTypeParser(UNPARSED, (_req, _payload, done) => done(null, undefined));
  app.addHook('preParsing', (req, _reply, payload, done) => {
    if (req.routeOptions?.config?.a2a === true) {
      declared.set(req.raw, req.raw.headers['content-type']);
      req.raw.headers['content-type'] = UNPARSED;
    }
    done(null, payload);
  });
  app.addHook('preValidation', (req, _reply, done) => {
    if (declared.has(req.raw)) {
      const type = declared.get(req.raw);
      if (type === undefined) delete req.raw.headers['content-type'];
      else req.raw.headers['content-type'] = type;
    }
    done(null);
  });
}
