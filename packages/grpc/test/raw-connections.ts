import { connect as http2Connect } from 'node:http2';
import { connect, type Socket } from 'node:net';

/** The cleartext HTTP/2 client preface (RFC 9113 §3.4). */
export const PREFACE = Buffer.from('PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n');
/** An empty SETTINGS frame: what a client sends right after the preface. */
export const EMPTY_SETTINGS = Buffer.from([0, 0, 0, 4, 0, 0, 0, 0, 0]);

export interface RawSocket {
  socket: Socket;
  /** Resolves when the server has closed the connection (or reset it). */
  closed: Promise<void>;
}

/** A raw TCP connection to `address` that writes `bytes` once connected and reads (and drops) what comes back. */
export async function rawSocket(address: string, bytes: Uint8Array = new Uint8Array()): Promise<RawSocket> {
  const [host, port] = splitAddress(address);
  const socket = connect(port, host);
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  socket.on('error', () => {});
  socket.on('data', () => {});
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('close', () => reject(new Error('closed before connecting')));
  }).catch(() => {});
  if (bytes.length && !socket.destroyed) socket.write(bytes);
  return { socket, closed };
}

const splitAddress = (address: string): [string, number] => {
  const at = address.lastIndexOf(':');
  return [address.slice(0, at).replace(/^\[|\]$/g, ''), Number(address.slice(at + 1))];
};

export interface RawGrpcAnswer {
  status?: number;
  grpcStatus?: number;
  grpcMessage?: string;
  /** Every header and trailer value, to search for leaks. */
  text: string;
  /** The response's message bytes (frames included). */
  body: Buffer;
}

/**
 * One gRPC call over node:http2 with full control of headers and body bytes (what @grpc/grpc-js would never send).
 * `abort` ends it early: 'cancel' resets the stream, 'destroy' drops the connection after the bytes are written.
 */
export function rawGrpcCall(
  address: string,
  path: string,
  body: Uint8Array,
  options: { headers?: Record<string, string>; abort?: 'cancel' | 'destroy'; endStream?: boolean } = {},
): Promise<RawGrpcAnswer> {
  return new Promise((resolve) => {
    const session = http2Connect(`http://${address}`);
    session.on('error', () => {});
    const stream = session.request({
      ':method': 'POST',
      ':path': path,
      'content-type': 'application/grpc',
      te: 'trailers',
      ...options.headers,
    });
    const answer: RawGrpcAnswer = { text: '', body: Buffer.alloc(0) };
    const record = (headers: Record<string, unknown>) => {
      answer.text += JSON.stringify(headers);
      if (headers[':status'] !== undefined) answer.status = Number(headers[':status']);
      if (headers['grpc-status'] !== undefined) answer.grpcStatus = Number(headers['grpc-status']);
      if (headers['grpc-message'] !== undefined) {
        answer.grpcMessage = decodeURIComponent(String(headers['grpc-message']));
      }
    };
    const finish = () => {
      session.close();
      resolve(answer);
    };
    stream.on('response', record);
    stream.on('trailers', record);
    stream.on('data', (chunk: Buffer) => {
      answer.body = Buffer.concat([answer.body, chunk]);
    });
    stream.on('error', () => {});
    stream.on('close', finish);
    stream.write(body);
    if (options.abort === 'cancel')
      stream.close(0x8); // CANCEL
    else if (options.abort === 'destroy') session.destroy();
    else if (options.endStream !== false) stream.end();
  });
}

/** A gRPC message frame: the compressed flag, the length, the bytes. */
export function grpcFrame(bytes: Uint8Array, compressed = false, length = bytes.length): Buffer {
  const head = Buffer.alloc(5);
  head.writeUInt8(compressed ? 1 : 0, 0);
  head.writeUInt32BE(length, 1);
  return Buffer.concat([head, bytes]);
}
