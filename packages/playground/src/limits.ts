import { isA2AError } from '@a2a/core';
import { readBodyBytes } from '@a2a/core/internal';

/**
 * The request's body (a bridge's prepared bytes or the stream), `undefined` when longer than `max`. Core's reader:
 * it also says what to do when a body parser mounted before the playground consumed the bytes.
 */
export async function readRequestBody(request: Request, max: number): Promise<Uint8Array | undefined> {
  try {
    return await readBodyBytes(request, max);
  } catch (error) {
    if (isA2AError(error) && error.type === 'PayloadTooLarge') return undefined;
    throw error;
  }
}

/** A JSON answer of the playground's own API. */
export const json = (status: number, body: unknown): Response =>
  new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' },
  });
