// The closed-loop load of the in-process A/B scripts (scripts/per-request.mjs, scripts/adapter-per-request.mjs): the
// bench's requests as raw HTTP/1.1 bytes over keep-alive sockets, so the client costs the same few µs for every
// variant (docs/performance.md, "Per request (issue 39)").
import { connect } from 'node:net';

/**
 * `requestBytes(scenario, port)` for the scenarios raw, card, send and stream; `paths` names the raw echo, the card
 * and the JSON-RPC endpoint, `prefix` the message ids.
 */
export function requestMaker({ rawPath, cardPath, jsonrpcPath, prefix }) {
  const message = (n, method, text) =>
    `{"jsonrpc":"2.0","id":${n},"method":"${method}","params":{"message":{"messageId":"${prefix}-${n}","role":"ROLE_USER","parts":[{"text":"${text}"}]}}}`;
  const bodies = {
    raw: (n) => message(n, 'SendMessage', 'hello from bench'),
    send: (n) => message(n, 'SendMessage', 'hello from bench'),
    stream: (n) => message(n, 'SendStreamingMessage', 'stream:10'),
  };
  let counter = 0;
  return (scenario, port) => {
    if (scenario === 'card')
      return `GET ${cardPath} HTTP/1.1\r\nhost: 127.0.0.1:${port}\r\naccept: application/json\r\n\r\n`;
    const body = bodies[scenario](++counter);
    const path = scenario === 'raw' ? rawPath : jsonrpcPath;
    const accept = scenario === 'stream' ? 'text/event-stream' : 'application/json';
    return `POST ${path} HTTP/1.1\r\nhost: 127.0.0.1:${port}\r\ncontent-type: application/json\r\naccept: ${accept}\r\na2a-version: 1.0\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
  };
}

/** One keep-alive connection; `send` resolves with the whole answer (a non-200 or an error answer throws). */
export function client(port) {
  const socket = connect(port, '127.0.0.1');
  socket.setNoDelay(true);
  let buffered = '';
  let done;
  socket.setEncoding('latin1');
  socket.on('data', (data) => {
    buffered += data;
    const head = buffered.indexOf('\r\n\r\n');
    if (head < 0) return;
    const length = /\r\ncontent-length: *(\d+)/i.exec(buffered.slice(0, head));
    const complete = length ? buffered.length >= head + 4 + Number(length[1]) : buffered.endsWith('\r\n0\r\n\r\n');
    if (!complete) return;
    const answer = buffered;
    buffered = '';
    if (!answer.startsWith('HTTP/1.1 200') || answer.includes('"error":'))
      throw new Error(`bad answer: ${answer.slice(0, 300)}`);
    done(answer);
  });
  return {
    send(bytes) {
      return new Promise((ok) => {
        done = ok;
        socket.write(bytes);
      });
    },
    close: () => socket.destroy(),
  };
}

/** `total` requests of `scenario` over the pool's connections, closed loop. */
export async function slice(clients, requestBytes, scenario, port, total) {
  let left = total;
  await Promise.all(
    clients.map(async (c) => {
      while (left-- > 0) await c.send(requestBytes(scenario, port));
    }),
  );
}

export const sliceKey = (server, scenario) => `${scenario}\t${server.dist}`;
export const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/**
 * A warm-up slice of every variant and scenario, then `rounds` of one slice each, the variants' order reversed every
 * other round. Returns CPU µs per request (this process, server and client) per `sliceKey`; `afterSlice(i, scenario)`
 * runs after each measured slice of variant `i` (per-request.mjs measures its allocation window there).
 */
export async function alternateSlices({
  servers,
  pools,
  scenarios,
  rounds,
  perSlice,
  requestBytes,
  verbose,
  afterSlice,
}) {
  const cpu = new Map();
  for (const [i, s] of servers.entries())
    for (const scenario of scenarios) await slice(pools[i], requestBytes, scenario, s.port, perSlice);
  for (let round = 0; round < rounds; round++) {
    for (const scenario of scenarios) {
      const order = round % 2 ? [...servers.keys()].reverse() : [...servers.keys()];
      for (const i of order) {
        const s = servers[i];
        const before = process.cpuUsage();
        await slice(pools[i], requestBytes, scenario, s.port, perSlice);
        const used = process.cpuUsage(before);
        const perRequest = (used.user + used.system) / perSlice;
        if (verbose) console.error(round, scenario, s.dist, perRequest.toFixed(1));
        const list = cpu.get(sliceKey(s, scenario)) ?? [];
        list.push(perRequest);
        cpu.set(sliceKey(s, scenario), list);
        await afterSlice?.(i, scenario);
      }
    }
  }
  return cpu;
}
