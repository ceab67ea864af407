/**
 * Random v4 UUIDs as flat strings. `crypto.randomUUID()` returns (on V8) a tree of ~20 concatenated pieces that
 * costs ~500 bytes of heap for as long as the id lives; ids kept in stored tasks are written as ASCII bytes and
 * decoded in one piece instead (~60 bytes). Random bytes come from the CSPRNG, fetched in batches.
 */
const HEX = Uint8Array.from('0123456789abcdef', (c) => c.charCodeAt(0));
const DASH = 45;
const pool = new Uint8Array(16 * 256);
let offset = pool.length;
const out = new Uint8Array(36);
const decoder = new TextDecoder();

export function newId(): string {
  if (offset + 16 > pool.length) {
    crypto.getRandomValues(pool);
    offset = 0;
  }
  let j = 0;
  for (let i = 0; i < 16; i++) {
    let byte = pool[offset + i] as number;
    if (i === 6)
      byte = (byte & 0x0f) | 0x40; // version 4
    else if (i === 8) byte = (byte & 0x3f) | 0x80; // RFC 4122 variant
    if (i === 4 || i === 6 || i === 8 || i === 10) out[j++] = DASH;
    out[j++] = HEX[byte >> 4] as number;
    out[j++] = HEX[byte & 15] as number;
  }
  offset += 16;
  return decoder.decode(out);
}
