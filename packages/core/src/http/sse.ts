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
 * The whole event stream as one text when the source is already over: the first frame, every frame it has ready
 * (up to {@link SSE_BATCH_BYTES}) and its end (or the error frame, as {@link sseStream} would send it). `undefined`
 * when more may come: the frames taken are then put back as `first`, for the stream to send as its first chunk. A Fetch
 * host then answers a finished stream with a text body (no `ReadableStream`, no reads of it): the same bytes, framed
 * by `Content-Length` instead of chunks (docs/performance.md, "Hono's stream").
 */
export function finishedFrames(options: SseOptions): string | undefined {
  if (!options.ready) return undefined;
  let text = options.first;
  try {
    while (text.length < SSE_BATCH_BYTES) {
      const frame = options.ready();
      if (frame === undefined) break;
      if (frame === null) {
        options.first = '';
        return text;
      }
      text += frame;
    }
  } catch (error) {
    options.first = '';
    return text + options.errorFrame(error);
  }
  options.first = text;
  return undefined;
}

/**
 * A pull-based byte stream of SSE frames: it waits for the consumer (backpressure) and cleans up on cancel. Frames the
 * source already has (`ready()`) are joined without a promise each, and what is ready leaves at once as one chunk: the
 * stream's start takes the first frame with those that followed it, and a stream the agent has finished by then is
 * closed there, so a host reads it in one go (one read, one socket write, no keep-alive timer). After a wait, the
 * frames that follow within the same turn of the event loop are joined too (a source that cannot say what it has
 * ready). docs/performance.md, "Hot-path tricks" (SSE frames on Fetch hosts).
 */
export function sseStream(options: SseOptions): ReadableStream<Uint8Array> {
  let timer: ReturnType<typeof setInterval> | undefined;
  let finished = false;
  // The source said it is over (`ready()` answered `null`, or `next()` done).
  let ended = false;
  // A next() that had not settled when the last batch left: the next pull starts with it.
  let waiting: Promise<IteratorResult<string>> | undefined;
  // The frames taken for the chunk being made (start and pull never overlap).
  let batch = '';
  const stop = () => {
    finished = true;
    if (timer) clearInterval(timer);
  };
  /** Adds the frames the source already has to the batch. Not while a `next()` waits: its frame comes first. */
  const takeReady = () => {
    if (waiting || !options.ready) return;
    while (batch.length < SSE_BATCH_BYTES) {
      const frame = options.ready();
      if (frame == null) {
        ended = frame === null;
        return;
      }
      batch += frame;
    }
  };
  /** Enqueues the batch (with the error frame, after a failure) and closes when the source is over. */
  const send = (controller: ReadableStreamDefaultController<Uint8Array>, error?: { error: unknown }) => {
    if (error) {
      batch += options.errorFrame(error.error);
      ended = true;
    }
    const chunk = batch;
    batch = '';
    if (chunk) controller.enqueue(encoder.encode(chunk));
    if (ended) {
      stop();
      controller.close();
    }
  };
  return new ReadableStream<Uint8Array>({
    start(controller) {
      // The first frame with those ready after it; all of it (with its end or error frame) when the source is over.
      const over = finishedFrames(options);
      const first = over ?? options.first;
      options.first = ''; // sent: not held for the stream's life
      controller.enqueue(encoder.encode(first));
      if (over !== undefined) {
        stop();
        controller.close();
        return;
      }
      timer = setInterval(() => {
        if (!finished) controller.enqueue(encoder.encode(KEEP_ALIVE_FRAME));
      }, options.keepAliveMs);
      (timer as { unref?: () => void }).unref?.();
    },
    async pull(controller) {
      try {
        takeReady();
        if (!batch && !ended) {
          // Nothing ready: wait for the next frame, and join those that follow it within this turn.
          let next = await (waiting ?? options.rest.next());
          waiting = undefined;
          while (!finished && !next.done) {
            batch += next.value;
            takeReady();
            if (ended || batch.length >= SSE_BATCH_BYTES) break;
            const following = options.rest.next();
            const settled = await Promise.race([following, endOfTurn()]);
            if (settled === TURN_ENDED) {
              waiting = following;
              break;
            }
            next = settled;
          }
          if (next.done) ended = true;
        }
        if (!finished) send(controller);
      } catch (error) {
        if (!finished) send(controller, { error });
      }
    },
    async cancel() {
      stop();
      await options.rest.return?.();
    },
  });
}
