/** A notification the receiver refuses; `status` is what the HTTP handler answers. */
export class WebhookError extends Error {
  constructor(
    readonly status: 400 | 401 | 404 | 413 | 415,
    message: string,
  ) {
    super(message);
    this.name = 'WebhookError';
  }
}

export const PARSED_BODY_HINT =
  'verify() needs the raw request body (string, Uint8Array or ArrayBuffer), but got an already-parsed value. ' +
  'A body parser consumed the bytes that signatures cover: mount the receiver before express.json(), or use ' +
  "express.raw({ type: ['application/json', 'application/a2a+json'] }) on its route (Koa: raw-body; Hapi: " +
  "payload: { parse: false, output: 'data' }).";
