import { A2AError } from '../errors.js';
import { preparedBody } from './prepared.js';

export const JSON_MEDIA_TYPES = ['application/json', 'application/a2a+json'];

/** `application/json` or `application/a2a+json`, with any parameters (charset…). */
export function isJsonContentType(header: string | null): boolean {
  if (!header) return false;
  const type = header.split(';', 1)[0]?.trim().toLowerCase() ?? '';
  return JSON_MEDIA_TYPES.includes(type);
}

const decoder = new TextDecoder('utf-8', { fatal: true });

/**
 * Reads the body as UTF-8 text, refusing more than `maxBytes` (413) without buffering past the limit.
 * Invalid UTF-8 is a parse error.
 */
export async function readBodyText(request: Request, maxBytes: number): Promise<string> {
  return decode(await readBodyBytes(request, maxBytes));
}

/**
 * The body's bytes (a bridge's prepared body or the stream), refusing more than `maxBytes` with PayloadTooLarge
 * without buffering past the limit. Any handler mounted through the adapters should read bodies with it.
 */
export async function readBodyBytes(request: Request, maxBytes: number): Promise<Uint8Array> {
  const declared = Number(request.headers.get('content-length') ?? Number.NaN);
  if (declared > maxBytes) throw tooLarge(maxBytes);
  const prepared = preparedBody(request);
  if (prepared) {
    const bytes = await prepared;
    if (bytes.byteLength > maxBytes) throw tooLarge(maxBytes);
    return bytes;
  }
  if (!request.body) return new Uint8Array();
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      void reader.cancel().catch(() => {});
      throw tooLarge(maxBytes);
    }
    chunks.push(value);
  }
  return chunks.length === 1 ? (chunks[0] as Uint8Array) : concat(chunks, size);
}

function decode(bytes: Uint8Array): string {
  try {
    return decoder.decode(bytes);
  } catch {
    throw new A2AError('ParseError', 'Request body is not valid UTF-8');
  }
}

function concat(chunks: Uint8Array[], size: number): Uint8Array {
  const out = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return out;
}

const tooLarge = (maxBytes: number) =>
  new A2AError('PayloadTooLarge', `Request body exceeds the limit of ${maxBytes} bytes`, {
    metadata: { limit: String(maxBytes) },
  });
