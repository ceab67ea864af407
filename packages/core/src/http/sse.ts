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
  /** The frame sent when the iterator throws, before the stream closes. */
  errorFrame: (error: unknown) => string;
}

export const dataFrame = (json: string, id?: number): string =>
  id === undefined ? `data: ${json}\n\n` : `id: ${id}\ndata: ${json}\n\n`;

export const errorEventFrame = (json: string): string => `event: error\ndata: ${json}\n\n`;

/** A pull-based byte stream of SSE frames: it waits for the consumer (backpressure) and cleans up on cancel. */
export function sseStream(options: SseOptions): ReadableStream<Uint8Array> {
  let timer: ReturnType<typeof setInterval> | undefined;
  let finished = false;
  const stop = () => {
    finished = true;
    if (timer) clearInterval(timer);
  };
  return new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(encoder.encode(options.first));
      options.first = ''; // sent: not held for the stream's life
      timer = setInterval(() => {
        if (!finished) controller.enqueue(encoder.encode(': keep-alive\n\n'));
      }, options.keepAliveMs);
      (timer as { unref?: () => void }).unref?.();
    },
    async pull(controller) {
      try {
        const next = await options.rest.next();
        if (finished) return;
        if (next.done) {
          stop();
          controller.close();
        } else controller.enqueue(encoder.encode(next.value));
      } catch (error) {
        if (finished) return;
        stop();
        controller.enqueue(encoder.encode(options.errorFrame(error)));
        controller.close();
      }
    },
    async cancel() {
      stop();
      await options.rest.return?.();
    },
  });
}
