import { A2AService } from '@a2a/grpc';
import { type DescMethod, fromBinary, fromJson, type JsonValue, toBinary, toJson } from '@bufbuild/protobuf';
import { BinaryReader } from '@bufbuild/protobuf/wire';
import * as grpc from '@grpc/grpc-js';
import type { WireError } from '../error-table.js';
import { type BindingClient, type CallResult, METHODS, type StreamResult, toRequest } from './binding.js';
import { fetchCard } from './card.js';

type Json = Record<string, unknown>;

/**
 * The gRPC binding (lf.a2a.v1.A2AService) with the service descriptors of @a2a/grpc: requests from proto JSON,
 * answers back to proto JSON (the same data model as the HTTP bindings), errors with their status name and the
 * `google.rpc.Status` details of `grpc-status-details-bin`. Unknown request fields are dropped by the codec, as a
 * gRPC client cannot send them.
 */
export function grpcClient(address: string, cardUrl: string): BindingClient {
  const client = new grpc.Client(address, grpc.credentials.createInsecure());
  const method = (name: string): DescMethod => {
    const found = A2AService.methods.find((m) => m.name === name);
    if (!found) throw new Error(`the A2A service has no method ${name}`);
    return found;
  };
  const codec = (m: DescMethod) => ({
    serialize: (json: Json) =>
      Buffer.from(toBinary(m.input, fromJson(m.input, json as JsonValue, { ignoreUnknownFields: true }))),
    deserialize: (bytes: Buffer) =>
      withoutEmptyLists(toJson(m.output, fromBinary(m.output, bytes), { alwaysEmitImplicit: true })) as Json,
  });
  const metadataOf = (headers: Record<string, string>) => {
    const metadata = new grpc.Metadata();
    for (const [k, v] of Object.entries(headers)) metadata.set(k.toLowerCase(), v);
    return metadata;
  };
  const path = (m: DescMethod) => `/${A2AService.typeName}/${m.name}`;
  return {
    name: 'grpc',
    async call(operation, params, options): Promise<CallResult> {
      if (operation === 'get_agent_card') return fetchCard(cardUrl, options);
      const m = method(METHODS[operation]);
      const { serialize, deserialize } = codec(m);
      let request: Json;
      try {
        request = toRequest(operation, params);
        serialize(request);
      } catch (error) {
        throw new Error(`cannot encode the ${m.name} request: ${(error as Error).message}`);
      }
      return new Promise((resolve) => {
        client.makeUnaryRequest(
          path(m),
          serialize,
          deserialize,
          request,
          metadataOf(options.headers),
          (error, response) => {
            if (error) resolve({ ok: false, status: 0, error: fromServiceError(error), headers: {} });
            else resolve({ ok: true, status: 200, body: response ?? {}, headers: {} });
          },
        );
      });
    },
    async stream(operation, params, options): Promise<StreamResult> {
      const m = method(METHODS[operation]);
      const { serialize, deserialize } = codec(m);
      const call = client.makeServerStreamRequest(
        path(m),
        serialize,
        deserialize,
        toRequest(operation, params),
        metadataOf(options.headers),
      );
      return new Promise((resolve) => {
        const events: Json[] = [];
        let done = false;
        const finish = (result: StreamResult) => {
          if (done) return;
          done = true;
          clearTimeout(timer);
          resolve(result);
        };
        const timer = setTimeout(() => {
          finish({ status: 200, events, cut: true });
          call.cancel();
        }, options.timeoutMs);
        call.on('data', (event: Json) => {
          events.push(event);
          if (options.maxEvents !== undefined && events.length >= options.maxEvents) {
            finish({ status: 200, events, cut: true });
            call.cancel();
          }
        });
        call.on('error', (error: grpc.ServiceError) => finish({ status: 200, events, error: fromServiceError(error) }));
        call.on('end', () => finish({ status: 200, events }));
      });
    },
    close: () => client.close(),
  };
}

/**
 * On the gRPC wire a proto3 scalar with implicit presence at its default (`nextPageToken: ""`) cannot be told from
 * an absent one, so answers show such scalars with their default, as the JSON bindings send them; empty repeated
 * and map fields stay absent (they are just as indistinguishable, and ACTS tests accept absent lists).
 */
function withoutEmptyLists(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutEmptyLists);
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    if (Array.isArray(v) && v.length === 0) continue;
    if (typeof v === 'object' && v !== null && !Array.isArray(v) && Object.keys(v).length === 0) continue;
    out[k] = withoutEmptyLists(v);
  }
  return out;
}

const STATUS_NAMES = Object.fromEntries(
  Object.entries(grpc.status)
    .filter(([, v]) => typeof v === 'number')
    .map(([k, v]) => [v, k]),
) as Record<number, string>;

export function fromServiceError(error: grpc.ServiceError): WireError {
  const out: WireError = { grpcStatus: STATUS_NAMES[error.code] ?? String(error.code), message: error.details };
  const bin = error.metadata?.get('grpc-status-details-bin')[0];
  if (bin instanceof Buffer) {
    try {
      const details = decodeStatusDetails(bin);
      out.details = details;
      const info = details.find((d) => d['@type'] === 'type.googleapis.com/google.rpc.ErrorInfo');
      if (typeof info?.reason === 'string') out.reason = info.reason;
    } catch {
      // Undecodable details: the status code still stands.
    }
  }
  return out;
}

/** `google.rpc.Status.details` (Any[]), ErrorInfo decoded; other detail types keep only their `@type`. */
export function decodeStatusDetails(bytes: Uint8Array): Json[] {
  const details: Json[] = [];
  const status = new BinaryReader(bytes);
  while (status.pos < status.len) {
    const [field, wireType] = status.tag();
    if (field !== 3) {
      status.skip(wireType);
      continue;
    }
    const any = new BinaryReader(status.bytes());
    let typeUrl = '';
    let value: Uint8Array = new Uint8Array();
    while (any.pos < any.len) {
      const [f, w] = any.tag();
      if (f === 1) typeUrl = any.string();
      else if (f === 2) value = any.bytes();
      else any.skip(w);
    }
    const detail: Json = { '@type': typeUrl };
    if (typeUrl.endsWith('google.rpc.ErrorInfo')) {
      const info = new BinaryReader(value);
      const metadata: Record<string, string> = {};
      while (info.pos < info.len) {
        const [f, w] = info.tag();
        if (f === 1) detail.reason = info.string();
        else if (f === 2) detail.domain = info.string();
        else if (f === 3) {
          const entry = new BinaryReader(info.bytes());
          let key = '';
          let val = '';
          while (entry.pos < entry.len) {
            const [ef, ew] = entry.tag();
            if (ef === 1) key = entry.string();
            else if (ef === 2) val = entry.string();
            else entry.skip(ew);
          }
          metadata[key] = val;
        } else info.skip(w);
      }
      detail.metadata = metadata;
    }
    details.push(detail);
  }
  return details;
}
