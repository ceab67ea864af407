/**
 * Reads a body up to `max` bytes while `signal` allows: the bytes, `'too-large'`, `'aborted'`, or `'failed'` when the
 * stream broke. Whichever way out, the
 * rest is cancelled, so a remote that trickles bytes or never ends holds nothing once the caller gives up.
 */
export async function readWithin(
  body: ReadableStream<Uint8Array> | null,
  max: number,
  signal: AbortSignal,
): Promise<Uint8Array | 'too-large' | 'aborted' | 'failed'> {
  if (!body) return new Uint8Array();
  const reader = body.getReader();
  const aborted = new Promise<'aborted'>((resolve) => {
    if (signal.aborted) resolve('aborted');
    signal.addEventListener('abort', () => resolve('aborted'), { once: true });
  });
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const next = await Promise.race([reader.read(), aborted]);
      if (next === 'aborted') return 'aborted';
      if (next.done) break;
      size += next.value.byteLength;
      if (size > max) return 'too-large';
      chunks.push(next.value);
    }
  } catch {
    return signal.aborted ? 'aborted' : 'failed';
  } finally {
    void reader.cancel().catch(() => {});
  }
  const out = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.byteLength;
  }
  return out;
}
