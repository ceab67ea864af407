import { connect, type Socket } from 'node:net';

/** A request written byte for byte: no client-side checks, so odd methods, hosts and headers reach the server. */
export interface RawRequest {
  method: string;
  /** The request target as written on the request line. */
  path: string;
  /** Written in order, duplicates kept. `host` and `content-length` are added unless given. */
  headers: ReadonlyArray<readonly [string, string]>;
  body?: Uint8Array | string;
  /** Send the body with `Transfer-Encoding: chunked` (in chunks of this many bytes). */
  chunkSize?: number;
}

export interface RawResponse {
  status: number;
  /** Lower-case names; repeated headers joined with `, `. */
  headers: Record<string, string>;
  body: string;
  /** The server closed the connection after this response (or said it would). */
  closing: boolean;
}

const CRLF = '\r\n';
const encoder = new TextEncoder();

/** One keep-alive HTTP/1.1 connection, read with a minimal response parser (status, headers, length/chunked body). */
export class RawConnection {
  private buffer = Buffer.alloc(0);
  private ended = false;
  private wake: (() => void) | undefined;

  private constructor(private readonly socket: Socket) {
    socket.on('data', (chunk: Buffer) => {
      this.buffer = Buffer.concat([this.buffer, chunk]);
      this.wake?.();
    });
    const end = () => {
      this.ended = true;
      this.wake?.();
    };
    socket.on('end', end);
    socket.on('close', end);
    socket.on('error', end); // a reset after the server answered is the server's right; reading reports what came
  }

  static open(host: string, port: number): Promise<RawConnection> {
    return new Promise((resolve, reject) => {
      const socket = connect({ host, port }, () => resolve(new RawConnection(socket)));
      socket.once('error', reject);
    });
  }

  get isClosed(): boolean {
    return this.ended || this.socket.destroyed;
  }

  /** Writes the request and reads one response; rejects after `timeoutMs` (a hang is a failure, not a wait). */
  async send(request: RawRequest, timeoutMs: number): Promise<RawResponse> {
    const { address, port } = this.socket.remoteAddress
      ? { address: this.socket.remoteAddress, port: this.socket.remotePort }
      : { address: '127.0.0.1', port: 0 };
    const body = typeof request.body === 'string' ? encoder.encode(request.body) : request.body;
    const has = (name: string) => request.headers.some(([n]) => n.toLowerCase() === name);
    const lines = [`${request.method} ${request.path} HTTP/1.1`];
    if (!has('host')) lines.push(`host: ${address}:${port}`);
    for (const [name, value] of request.headers) lines.push(`${name}: ${value}`);
    const chunked = request.chunkSize !== undefined && body !== undefined;
    if (chunked && !has('transfer-encoding')) lines.push('transfer-encoding: chunked');
    if (!chunked && body !== undefined && !has('content-length')) lines.push(`content-length: ${body.byteLength}`);
    const head = Buffer.from(`${lines.join(CRLF)}${CRLF}${CRLF}`, 'latin1');
    const parts: Buffer[] = [head];
    if (body && chunked) {
      const size = Math.max(1, request.chunkSize ?? 1);
      for (let i = 0; i < body.byteLength; i += size) {
        const slice = body.subarray(i, i + size);
        parts.push(Buffer.from(`${slice.byteLength.toString(16)}${CRLF}`), Buffer.from(slice), Buffer.from(CRLF));
      }
      parts.push(Buffer.from(`0${CRLF}${CRLF}`));
    } else if (body) parts.push(Buffer.from(body));
    this.socket.write(Buffer.concat(parts));

    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`no complete answer within ${timeoutMs} ms to ${request.method} ${request.path}`)),
        timeoutMs,
      );
    });
    try {
      return await Promise.race([this.readResponse(request.method), timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  close(): void {
    this.socket.destroy();
  }

  private async more(): Promise<void> {
    if (this.ended) throw new Error('connection closed before a complete response');
    await new Promise<void>((resolve) => {
      this.wake = resolve;
    });
    this.wake = undefined;
  }

  private async readResponse(method: string): Promise<RawResponse> {
    for (;;) {
      let end = this.buffer.indexOf('\r\n\r\n');
      while (end < 0) {
        await this.more();
        end = this.buffer.indexOf('\r\n\r\n');
      }
      const [statusLine = '', ...headerLines] = this.buffer.subarray(0, end).toString('latin1').split(CRLF);
      this.buffer = this.buffer.subarray(end + 4);
      const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1] ?? Number.NaN);
      if (!Number.isInteger(status)) throw new Error(`not an HTTP response: ${JSON.stringify(statusLine)}`);
      const headers: Record<string, string> = {};
      for (const line of headerLines) {
        const colon = line.indexOf(':');
        const name = line.slice(0, colon).trim().toLowerCase();
        const value = line.slice(colon + 1).trim();
        headers[name] = headers[name] === undefined ? value : `${headers[name]}, ${value}`;
      }
      if (status >= 100 && status < 200) continue; // 100 Continue and friends
      const bytes = await this.readBody(method, status, headers);
      const closing = /\bclose\b/i.test(headers.connection ?? '') || statusLine.startsWith('HTTP/1.0');
      return { status, headers, body: bytes.toString('utf8'), closing: closing || this.ended };
    }
  }

  private async readBody(method: string, status: number, headers: Record<string, string>): Promise<Buffer> {
    if (method === 'HEAD' || status === 204 || status === 304) return Buffer.alloc(0);
    if (/chunked/i.test(headers['transfer-encoding'] ?? '')) {
      const out: Buffer[] = [];
      for (;;) {
        let line = this.buffer.indexOf(CRLF);
        while (line < 0) {
          await this.more();
          line = this.buffer.indexOf(CRLF);
        }
        const size = Number.parseInt(this.buffer.subarray(0, line).toString('latin1'), 16);
        if (!Number.isFinite(size)) throw new Error('bad chunk size in the response');
        while (this.buffer.byteLength < line + 2 + size + 2) await this.more();
        out.push(this.buffer.subarray(line + 2, line + 2 + size));
        this.buffer = this.buffer.subarray(line + 2 + size + 2);
        if (size === 0) return Buffer.concat(out); // no trailers expected
      }
    }
    const length = headers['content-length'];
    if (length !== undefined) {
      const n = Number(length);
      while (this.buffer.byteLength < n) await this.more();
      const out = this.buffer.subarray(0, n);
      this.buffer = this.buffer.subarray(n);
      return out;
    }
    // Neither: the body runs to the end of the connection.
    while (!this.ended) await this.more().catch(() => {});
    const out = this.buffer;
    this.buffer = Buffer.alloc(0);
    return out;
  }
}
