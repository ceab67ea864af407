const encoder = new TextEncoder();
const decoder = new TextDecoder();
const ELLIPSIS = '…'; // 3 bytes of UTF-8

/**
 * `text` cut to at most `maxBytes` of UTF-8, ending in an ellipsis when cut. Error text goes into HTTP/2 trailers,
 * where a long one (an echoed id, a huge message from a hook) would make the client refuse the whole header block.
 */
export function clip(text: string, maxBytes: number): string {
  if (text.length * 3 <= maxBytes) return text; // fits whatever the characters
  const bytes = encoder.encode(text);
  if (bytes.length <= maxBytes) return text;
  let end = Math.max(0, maxBytes - 3);
  while (end > 0 && ((bytes[end] as number) & 0xc0) === 0x80) end--; // not inside a character
  return decoder.decode(bytes.subarray(0, end)) + ELLIPSIS;
}
