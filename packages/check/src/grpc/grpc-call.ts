import type { A2AService } from '@a2a/grpc';
import type { Metadata, ServiceError, StatusObject } from '@grpc/grpc-js';
import { NoAnswer } from '../http.js';
import type { GrpcTarget } from './grpc-target.js';
import { readStatusDetails, type StatusDetails } from './status-details.js';

type Json = Record<string, unknown>;

/** How a gRPC call ended, read within the time bound. */
export interface GrpcAnswer {
  /** The gRPC status code (0 OK) and its name, e.g. `NOT_FOUND`. */
  code: number;
  codeName: string;
  /** The status message (`grpc-message`). */
  message: string;
  /** The google.rpc.Status of `grpc-status-details-bin`, when the agent sent one. */
  details?: StatusDetails;
  /** Why `grpc-status-details-bin` could not be read, when it was there. */
  detailsError?: string;
  /** A unary call's response (proto JSON). */
  result?: Json;
  /** A server-streaming call's messages (proto JSON), the first `maxEvents`. */
  events?: Json[];
  /** A stream still open when the time ran out, after at least one message. */
  streamOpen?: boolean;
  /** A response message that is not the method's output type. */
  undecodable?: string;
}

export interface GrpcProbe {
  metadata: Record<string, string>;
  timeoutMs: number;
  signal?: AbortSignal | undefined;
  /** Server-streaming methods: stop after this many messages (default 1). */
  maxEvents?: number;
  /** Emit zero-valued fields in `result` (ListTasks: its REQUIRED fields are implicit in proto3). */
  implicit?: boolean;
}

/** @grpc/grpc-js, the generated A2AService descriptors and the protobuf runtime, loaded at the first gRPC call. */
const modules = async () => {
  const [grpc, contract, protobuf] = await Promise.all([
    import('@grpc/grpc-js'),
    import('@a2a/grpc'),
    import('@bufbuild/protobuf'),
  ]);
  return { grpc, service: contract.A2AService as typeof A2AService, protobuf };
};
let loading: ReturnType<typeof modules> | undefined;

const STREAMING = new Set(['SendStreamingMessage', 'SubscribeToTask']);

/**
 * One call of `lf.a2a.v1.A2AService/<method>` (`request` in proto JSON), bounded in time like an HTTP call: no answer
 * in time (or a stopped check) throws NoAnswer, as does a connection that could not be made; any status the agent
 * sent is the answer.
 */
export async function grpcCall(
  target: GrpcTarget,
  method: string,
  request: Json,
  probe: GrpcProbe,
): Promise<GrpcAnswer> {
  loading ??= modules();
  const { grpc, service, protobuf } = await loading;
  const desc = service.methods.find((m) => m.name === method);
  if (!desc) throw new Error(`no method ${method} in ${service.typeName}`);
  const bytes = Buffer.from(protobuf.toBinary(desc.input, protobuf.fromJson(desc.input, request as never)));
  const decode = (data: Buffer) =>
    protobuf.toJson(desc.output, protobuf.fromBinary(desc.output, data), {
      alwaysEmitImplicit: probe.implicit ?? false,
    }) as Json;
  const metadata = new grpc.Metadata();
  for (const [key, value] of Object.entries(probe.metadata)) {
    try {
      metadata.set(key.toLowerCase(), value);
    } catch {
      // a header name that is not a legal metadata key (e.g. with a space): not sendable over gRPC
    }
  }
  const credentials = target.secure ? grpc.credentials.createSsl() : grpc.credentials.createInsecure();
  // Answers read up to 1 MiB, as over HTTP (http.ts): a hostile agent cannot make it buffer more.
  const client = new grpc.Client(target.target, credentials, { 'grpc.max_receive_message_length': 1024 * 1024 });
  const path = `/${service.typeName}/${method}`;
  const identity = (b: Buffer) => b;
  const seconds = `${Math.round(probe.timeoutMs / 100) / 10} s`;
  const codeName = (code: number) => (grpc.status[code] as string | undefined) ?? `code ${code}`;

  return new Promise<GrpcAnswer>((resolve, reject) => {
    let settled = false;
    const events: Json[] = [];
    let undecodable: string | undefined;
    const read = (data: Buffer): Json | undefined => {
      try {
        return decode(data);
      } catch (error) {
        undecodable ??= `not a ${desc.output.typeName}: ${error instanceof Error ? error.message : String(error)}`;
        return undefined;
      }
    };
    const finish = (answer: GrpcAnswer | NoAnswer) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      probe.signal?.removeEventListener('abort', onAbort);
      call.cancel();
      client.close();
      if (answer instanceof NoAnswer) reject(answer);
      else resolve({ ...answer, ...(undecodable !== undefined && { undecodable }) });
    };
    const ended = (status: Pick<StatusObject, 'code' | 'details' | 'metadata'>) => {
      if (status.code === grpc.status.UNAVAILABLE && /No connection established|ECONNREFUSED/.test(status.details))
        return finish(new NoAnswer(/ECONNREFUSED/.test(status.details) ? 'connection refused' : status.details, false));
      finish({
        code: status.code,
        codeName: codeName(status.code),
        message: status.details,
        ...statusDetailsOf(status.metadata),
        ...(STREAMING.has(method) && { events }),
      });
    };
    const maxEvents = probe.maxEvents ?? 1;
    const call = STREAMING.has(method)
      ? client.makeServerStreamRequest(path, identity, identity, bytes, metadata)
      : client.makeUnaryRequest(path, identity, identity, bytes, metadata, (error: ServiceError | null, data) => {
          if (error) return ended(error);
          const result = data === undefined ? undefined : read(data);
          finish({ code: 0, codeName: 'OK', message: '', ...(result !== undefined && { result }) });
        });
    if (STREAMING.has(method)) {
      const stream = call as ReturnType<typeof client.makeServerStreamRequest>;
      stream.on('data', (data: Buffer) => {
        const event = read(data);
        if (event) events.push(event);
        if (events.length >= maxEvents) finish({ code: 0, codeName: 'OK', message: '', events, streamOpen: true });
      });
      stream.on('status', ended);
      stream.on('error', () => {}); // the status event carries it
    }
    const timer = setTimeout(() => {
      if (events.length > 0) finish({ code: 0, codeName: 'OK', message: '', events, streamOpen: true });
      else finish(new NoAnswer(`no answer within ${seconds}`, true));
    }, probe.timeoutMs);
    const onAbort = () => finish(new NoAnswer('stopped', true));
    if (probe.signal?.aborted) onAbort();
    else probe.signal?.addEventListener('abort', onAbort, { once: true });
  });

  function statusDetailsOf(metadata: Metadata | undefined): Pick<GrpcAnswer, 'details' | 'detailsError'> {
    const bin = metadata?.get('grpc-status-details-bin')[0];
    if (bin === undefined) return {};
    if (!(bin instanceof Buffer)) return { detailsError: 'grpc-status-details-bin is not binary' };
    try {
      return { details: readStatusDetails(bin) };
    } catch (error) {
      return { detailsError: `grpc-status-details-bin is not a google.rpc.Status (${(error as Error).message})` };
    }
  }
}
