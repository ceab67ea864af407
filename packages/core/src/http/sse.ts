// Server-Sent Events framing (spec §5): `data: <one-line JSON>\n\n`, comment keep-alives, and headers that stop
// proxies and compression from buffering.

export const SSE_HEADERS: Record<string, string> = {
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-cache, no-transform',
  'x-accel-buffering': 'no',
};

const encoder = new TextEncoder();

export interface SseOptions {
  /** Interval of `: keep-alive` comments. */
  keepAliveMs: number;
  /** Frames for the items; the first one is already known (peeked). */
  first: string;
  rest: AsyncIterator<string>;
  /**
   * The next frame if it is already there, synchronously; `null`: no more frames (as `rest.next()` would say);
   * `undefined` (or absent): `rest.next()`, which waits or ends.
   */
  ready?(): string | null | undefined;
  /** The frame sent when the iterator throws, before the stream closes. */
  errorFrame: (error: unknown) => string;
}

export const dataFrame = (json: string, id?: number): string =>
  id === undefined ? `data: ${json}\n\n` : `id: ${id}\ndata: ${json}\n\n`;

export const errorEventFrame = (json: string): string => `event: error\ndata: ${json}\n\n`;

/** A batch of frames this large leaves at once rather than at the end of the turn (here and in node/write-frames.ts). */
export const SSE_BATCH_BYTES = 64 * 1024;
/** The comment that keeps an idle stream open through proxies. */
export const KEEP_ALIVE_FRAME = ': keep-alive\n\n';
const TURN_ENDED = Symbol('turn ended');
const later: (run: () => void) => unknown = globalThis.setImmediate ?? ((run) => setTimeout(run, 0));
let turnEnd: Promise<typeof TURN_ENDED> | undefined;
/** Settles once the current turn of the event loop is over; one promise for every stream in the turn. */
const endOfTurn = (): Promise<typeof TURN_ENDED> =>
  (turnEnd ??= new Promise((resolve) =>
    later(() => {
      turnEnd = undefined;
      resolve(TURN_ENDED);
    }),
  ));

/**
 * A pull-based byte stream of SSE frames: it waits for the consumer (backpressure) and cleans up on cancel. The frames
 * the source has ready within one turn of the event loop leave as one chunk, which a host writes in one go (one
 * socket write instead of one per event: docs/performance.md, "Hot-path tricks").
 */
export function sseStream(options: SseOptions): ReadableStream<Uint8Array> {
  let timer: ReturnType<typeof setInterval> | undefined;
  let finished = false;
  // A next() that had not settled when the last batch left: the next pull starts with it.
  let waiting: Promise<IteratorResult<string>> | undefined;
  const stop = () => {
    finished = true;
    if (timer) clearInterval(timer);
  };
  return new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(encoder.encode(options.first));
      options.first = ''; // sent: not held for the stream's life
      timer = setInterval(() => {
        if (!finished) controller.enqueue(encoder.encode(KEEP_ALIVE_FRAME));
      }, options.keepAliveMs);
      (timer as { unref?: () => void }).unref?.();
    },
    async pull(controller) {
      let batch = '';
      try {
        let next = await (waiting ?? options.rest.next());
        waiting = undefined;
        while (!finished && !next.done) {
          batch += next.value;
          if (batch.length >= SSE_BATCH_BYTES) break;
          const following = options.rest.next();
          const settled = await Promise.race([following, endOfTurn()]);
          if (settled === TURN_ENDED) {
            waiting = following;
            break;
          }
          next = settled;
        }
        if (finished) return;
        if (batch) controller.enqueue(encoder.encode(batch));
        if (next.done) {
          stop();
          controller.close();
        }
      } catch (error) {
        if (finished) return;
        stop();
        controller.enqueue(encoder.encode(batch + options.errorFrame(error)));
        controller.close();
      }
    },
    async cancel() {
      stop();
      await options.rest.return?.();
    },
  });
}
