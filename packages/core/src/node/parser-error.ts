import type { IncomingMessage } from 'node:http';
import { A2AError } from '../errors.js';

/** What connect/Koa body parsers (body-parser, co-body, raw-body: http-errors) put on the errors they raise. */
interface ParserError {
  type?: unknown;
  status?: unknown;
  statusCode?: unknown;
  limit?: unknown;
  body?: unknown;
}

/**
 * A body parser's error as the request's body: the raw text of a body it could not parse (the handler answers
 * -32700 from it), else the A2A error the handler answers when it reads the body (413 over the parser's limit, 415
 * for a charset or Content-Encoding it does not decode, 400 for anything else the client did).
 */
export function bodyFromParserError(error: unknown): string | A2AError {
  const e = (typeof error === 'object' && error !== null ? error : {}) as ParserError;
  // body-parser's entity.parse.failed, co-body's SyntaxError: both keep the text.
  if ((e.type === 'entity.parse.failed' || error instanceof SyntaxError) && typeof e.body === 'string') return e.body;
  const status = Number(e.status ?? e.statusCode);
  if (e.type === 'entity.too.large' || status === 413) {
    const limit = typeof e.limit === 'number' ? e.limit : undefined;
    return new A2AError(
      'PayloadTooLarge',
      limit === undefined ? 'Request body is too large' : `Request body exceeds the limit of ${limit} bytes`,
      limit === undefined ? {} : { metadata: { limit: String(limit) } },
    );
  }
  if (e.type === 'charset.unsupported' || e.type === 'encoding.unsupported' || status === 415) {
    return new A2AError('UnsupportedMediaType', 'The request body is in a charset or Content-Encoding not supported');
  }
  if (e.type === 'entity.parse.failed') return new A2AError('ParseError', 'Invalid JSON payload');
  // zlib could not inflate a body sent as gzip/deflate (passed on as is by body-parser and co-body).
  if (isZlibError(error)) return new A2AError('BadRequest', 'The request body does not match its Content-Encoding');
  // A `verify` hook that refused the body (body-parser's entity.verify.failed keeps the status it was given).
  if (status === 401) return new A2AError('Unauthenticated', 'The request body was refused');
  if (status === 403) return new A2AError('PermissionDenied', 'The request body was refused');
  if (status >= 400 && status < 500) return new A2AError('BadRequest', 'The request body could not be read');
  return new A2AError('Internal', 'Internal error', { cause: error });
}

/** A zlib or Brotli error (`Z_DATA_ERROR`, `ERR__ERROR_FORMAT_PADDING_1`...): a compressed body that does not inflate. */
export const isZlibError = (error: unknown): boolean => {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^(Z_[A-Z_]+|ERR__ERROR_\w+|ERR_BROTLI_\w+)$/.test(code);
};

/**
 * body-parser's (and raw-body's) errors: an http-error whose `type` says what went wrong with the body, or the zlib
 * error of a compressed body that does not inflate. Adapters hand these to core on A2A paths (bodyError).
 */
const BODY_ERROR_TYPE = /^(entity|charset|encoding|request|stream|parameters|depth)\./;
export const isBodyParserError = (error: unknown): boolean => {
  const type = (error as { type?: unknown } | null)?.type;
  return (typeof type === 'string' && BODY_ERROR_TYPE.test(type)) || isZlibError(error);
};

/**
 * A parser that refused the charset or Content-Encoding from the headers alone (body-parser does) left the body
 * unread: core reads it itself and answers as without a parser (naming the request's JSON-RPC id).
 */
export const refusedUnread = (req: IncomingMessage, error: unknown): boolean => {
  const type = (error as { type?: unknown } | null)?.type;
  return (type === 'charset.unsupported' || type === 'encoding.unsupported') && !req.readableDidRead;
};
