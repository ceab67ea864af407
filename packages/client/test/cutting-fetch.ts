// No Node imports: the Bun and Deno client fixtures use it too.

/**
 * A fetch whose first `cuts` event-stream responses break (like a dropped connection) after `after` complete events:
 * the client sees a network error mid-stream, the agent goes on.
 */
export function cuttingFetch(after: number, cuts = 1): typeof fetch {
  let left = cuts;
  return async (input, init) => {
    const response = await fetch(input, init);
    if (left === 0 || !response.body || !response.headers.get('content-type')?.startsWith('text/event-stream')) {
      return response;
    }
    left--;
    const reader = response.body.getReader();
    let seen = 0;
    let pending = '';
    const decoder = new TextDecoder();
    const encoder = new TextEncoder();
    let dead = false;
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        // The connection dies once the client has read what arrived before: erroring the stream while those bytes
        // are still queued would drop them (the streams spec clears the queue), and the client would see no event.
        if (dead) return controller.error(new TypeError('terminated'));
        const chunk = await reader.read();
        if (chunk.done) return controller.close();
        pending += decoder.decode(chunk.value, { stream: true });
        let out = '';
        let end = pending.indexOf('\n\n');
        while (end !== -1) {
          const frame = pending.slice(0, end + 2);
          pending = pending.slice(end + 2);
          if (!frame.startsWith(':')) seen++;
          out += frame;
          if (seen === after) {
            // Half of the next frame arrives, then the connection dies.
            controller.enqueue(encoder.encode(`${out}data: {"statusUp`));
            dead = true;
            await reader.cancel();
            return;
          }
          end = pending.indexOf('\n\n');
        }
        if (out) controller.enqueue(encoder.encode(out));
      },
      cancel: (reason) => reader.cancel(reason),
    });
    return new Response(body, { status: response.status, headers: response.headers });
  };
}
