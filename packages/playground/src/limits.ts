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

/** Reads a body up to `max` bytes; `undefined` when it is longer (the rest is not read). */
export async function readCapped(
  body: ReadableStream<Uint8Array> | null,
  max: number,
): Promise<Uint8Array | undefined> {
  if (!body) return new Uint8Array();
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      await reader.cancel().catch(() => {});
      return undefined;
    }
    chunks.push(value);
  }
  const out = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.byteLength;
  }
  return out;
}

/** A JSON answer of the playground's own API. */
export const json = (status: number, body: unknown): Response =>
  new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' },
  });
