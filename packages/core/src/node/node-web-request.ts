import type { IncomingMessage, ServerResponse } from 'node:http';
import { bufferedWebRequest } from './buffered-request.js';
import { refusedUnread } from './parser-error.js';
import { toWebRequest } from './to-web-request.js';
import type { ToWebRequestOptions } from './web-request-options.js';

/**
 * What adapters call: the fast path when it applies (see {@link bufferedWebRequest}: no body, a small declared one,
 * or the raw bytes a framework kept), else {@link toWebRequest} (streamed or re-serialized body).
 */
export function nodeWebRequest(req: IncomingMessage, res: ServerResponse, options: ToWebRequestOptions = {}): Request {
  if (options.bodyError !== undefined && refusedUnread(req, options.bodyError))
    options = { ...options, bodyError: undefined };
  return bufferedWebRequest(req, res, options) ?? toWebRequest(req, res, options);
}
