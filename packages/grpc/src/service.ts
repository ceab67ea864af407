import {
  A2AError,
  type A2AErrorType,
  type A2AHttpHandler,
  type A2ARequestContext,
  type CallContext,
  isA2AError,
} from '@a2a/core';
import {
  authorize,
  OPERATIONS,
  type Operation,
  type OperationEnv,
  parseParams,
  type RequestTelemetryHandle,
  startBindingTelemetry,
  tenantScoped,
  toA2AError,
} from '@a2a/core/internal';
import type { DescMethod } from '@bufbuild/protobuf';
import {
  Metadata,
  type MethodDefinition,
  type ServerErrorResponse,
  type ServerUnaryCall,
  type ServerWritableStream,
  type ServiceDefinition,
  status,
  type UntypedServiceImplementation,
} from '@grpc/grpc-js';
import { clip } from './clip.js';
import { type DecodedRequest, decodeRequest, encodeRequest, encodeResponse } from './codec.js';
import { A2AService } from './gen/lf/a2a/v1/a2a_pb.js';
import { checkVersion, metadataList } from './metadata.js';
import { MAX_MESSAGE_BYTES, statusDetails } from './status-details.js';

/** A gRPC status code name, e.g. 'FAILED_PRECONDITION'. */
export type GrpcStatusName = Extract<keyof typeof status, string>;

const codeOf = (name: string): status => (status as unknown as Record<string, status>)[name] ?? status.UNKNOWN;

/** The operations as a contract method's name picks them, their types erased. */
const BY_METHOD: Readonly<Record<string, Operation>> = OPERATIONS;

/** Any call of the service, unary or streaming: what the `context` hook sees. */
export type A2AGrpcCall = ServerUnaryCall<unknown, unknown> | ServerWritableStream<unknown, unknown>;

export interface A2AGrpcServiceOptions {
  /**
   * The caller (and tenant) from the call's metadata, e.g. a bearer token in `authorization`. Without it every call
   * is anonymous; with a card that declares security, anonymous calls get UNAUTHENTICATED. May throw an A2AError
   * ('Unauthenticated', 'PermissionDenied') to refuse the call.
   */
  context?: (
    metadata: Metadata,
    call: A2AGrpcCall,
  ) => A2ARequestContext | undefined | Promise<A2ARequestContext | undefined>;
  /**
   * The HTTP handler's public base URL, for the cards GetExtendedAgentCard returns (their JSON-RPC and HTTP+JSON
   * interfaces). Default: the handler's `publicUrl`; with neither, those cards list the gRPC interface only.
   */
  httpUrl?: string;
  /**
   * Status codes replacing core's table (spec v1.0.1) for some errors, e.g. `{ VersionNotSupported: 'UNIMPLEMENTED' }`
   * for clients of the v1.0.0 table.
   */
  statusCodes?: Partial<Record<A2AErrorType, GrpcStatusName>>;
  /** Errors that are not the client's fault. Default: console.error. */
  onError?: (error: unknown) => void;
}

export interface A2AGrpcService {
  /** `lf.a2a.v1.A2AService` for `grpc.Server#addService`. */
  definition: ServiceDefinition;
  implementation: UntypedServiceImplementation;
  /** Ends the open streams with UNAVAILABLE (at shutdown: clients resubscribe elsewhere). */
  endStreams(): void;
}

type Stream = ServerWritableStream<DecodedRequest, Uint8Array>;
type Unary = ServerUnaryCall<DecodedRequest, Uint8Array>;

/**
 * The A2A v1.0 gRPC service over the engine of an HTTP handler: the same operations table as JSON-RPC and HTTP+JSON,
 * so tasks, push configs and extended cards are shared between the bindings.
 */
export function createA2AGrpcService(http: A2AHttpHandler, options: A2AGrpcServiceOptions = {}): A2AGrpcService {
  checkHttpHandler(http);
  const engine = http.requestHandler;
  const onError = options.onError ?? ((error: unknown) => console.error('[a2a grpc]', error));
  const declared = new Set((engine.capabilities.extensions ?? []).map((e) => e.uri));
  const publishCard: OperationEnv['publishCard'] = (card) => http.publishCard(card, options.httpUrl);
  const openStreams = new Map<Stream, AbortController>();

  /** An error as the status the call ends with, the `google.rpc.Status` in `grpc-status-details-bin`. */
  function toStatus(error: unknown): ServerErrorResponse {
    const a2a = toA2AError(error);
    if (a2a.type === 'Internal' || !isA2AError(error)) onError(error);
    const code = codeOf(options.statusCodes?.[a2a.type] ?? a2a.grpcStatus);
    const metadata = new Metadata();
    metadata.set('grpc-status-details-bin', Buffer.from(statusDetails(code, a2a)));
    const details = clip(a2a.message, MAX_MESSAGE_BYTES); // trailers have a size limit
    return Object.assign(new Error(details), { code, details, metadata });
  }

  /** The checks every call passes, in the HTTP bindings' order: version, caller, request, then the env to run in. */
  async function prepare(
    call: Unary | Stream,
    operation: Operation,
    signal: AbortSignal,
    telemetry: RequestTelemetryHandle | undefined,
  ) {
    checkVersion(call.metadata);
    const context = options.context ? await options.context(call.metadata, call) : undefined;
    authorize(engine.agentCard, context?.user);
    const request = call.request;
    if ('error' in request) throw request.error;
    const checked = parseParams(operation, request.json);
    const params = checked instanceof Promise ? await checked : checked;
    const extensions = metadataList(call.metadata, 'a2a-extensions').filter((uri) => declared.has(uri));
    if (extensions.length) {
      const activated = new Metadata();
      activated.set('a2a-extensions', extensions.join(', '));
      call.sendMetadata(activated);
    }
    const callContext: CallContext = {
      user: context?.user,
      tenant: context?.tenant,
      extensions,
      signal,
      state: context?.state,
    };
    return { params, env: tenantScoped({ handler: engine, call: callContext, publishCard, telemetry }, params) };
  }

  function unary(method: DescMethod, operation: Operation) {
    return (call: Unary, callback: (error: ServerErrorResponse | null, value?: Uint8Array) => void) => {
      const controller = new AbortController();
      call.on('cancelled', () => controller.abort()); // the client went away or its deadline passed
      const telemetry = startTelemetry(call, method);
      const work = async () => {
        const { params, env } = await prepare(call, operation, controller.signal, telemetry);
        return encodeResponse(method, await (operation.run(params, env) as Promise<unknown>));
      };
      (telemetry ? telemetry.run(work) : work()).then(
        (bytes) => {
          telemetry?.finish(undefined);
          callback(null, bytes);
        },
        (error: unknown) => {
          telemetry?.fail(error);
          telemetry?.finish(undefined);
          callback(toStatus(error));
        },
      );
    };
  }

  function streaming(method: DescMethod, operation: Operation) {
    return (call: Stream) => {
      const controller = new AbortController();
      // A client cancel (or its deadline) ends this stream only: the engine's subscription ends, the task runs on.
      call.on('cancelled', () => controller.abort());
      openStreams.set(call, controller);
      const telemetry = startTelemetry(call, method);
      const serve = () => serveStream(call, method, operation, controller.signal, telemetry);
      void (telemetry ? telemetry.run(serve) : serve()).finally(() => openStreams.delete(call));
    };
  }

  async function serveStream(
    call: Stream,
    method: DescMethod,
    operation: Operation,
    signal: AbortSignal,
    telemetry: RequestTelemetryHandle | undefined,
  ) {
    let events: AsyncGenerator<unknown> | undefined;
    try {
      const { params, env } = await prepare(call, operation, signal, telemetry);
      events = operation.run(params, env) as AsyncGenerator<unknown>;
      while (!signal.aborted) {
        const next = await events.next();
        if (next.done || signal.aborted) break;
        // Backpressure: past the stream's high-water mark, wait for HTTP/2 flow control to drain it.
        if (!call.write(encodeResponse(method, next.value))) await drained(call, signal);
      }
      if (!signal.aborted) call.end();
    } catch (error) {
      telemetry?.fail(error);
      if (!signal.aborted) call.emit('error', toStatus(error));
    } finally {
      await events?.return(undefined);
      telemetry?.finish(undefined); // ends the span of a call that failed before its stream began
    }
  }

  const definition: Record<string, MethodDefinition<DecodedRequest, Uint8Array>> = {};
  const implementation: UntypedServiceImplementation = {};
  for (const method of A2AService.methods) {
    const operation = BY_METHOD[method.name];
    if (!operation) continue; // every method of the contract has one (proto-contract.test.ts)
    const streams = method.methodKind === 'server_streaming';
    definition[method.name] = {
      path: `/${A2AService.typeName}/${method.name}`,
      requestStream: false,
      responseStream: streams,
      // Server side only reads requests; a client made from this definition would send the proto JSON's bytes.
      requestSerialize: (value: DecodedRequest) =>
        Buffer.from('json' in value ? encodeRequest(method, value.json) : []),
      requestDeserialize: (bytes: Buffer) => decodeRequest(method.input, bytes),
      responseSerialize: (value: Uint8Array) => Buffer.from(value.buffer, value.byteOffset, value.byteLength),
      responseDeserialize: (bytes: Buffer) => bytes,
      originalName: method.localName,
    };
    implementation[method.name] = streams ? streaming(method, operation) : unary(method, operation);
  }

  return {
    definition: definition as ServiceDefinition,
    implementation,
    endStreams() {
      for (const [call, controller] of openStreams) {
        call.emit('error', toStatus(new A2AError('Unavailable', 'The server is shutting down: subscribe again')));
        controller.abort();
      }
    },
  };
}

/** The call's server span and metrics (`undefined` without an OpenTelemetry SDK), continuing a `traceparent` in metadata. */
function startTelemetry(call: A2AGrpcCall, method: DescMethod): RequestTelemetryHandle | undefined {
  const headers = new Headers();
  for (const key of ['traceparent', 'tracestate']) {
    const value = call.metadata.get(key)[0];
    try {
      if (typeof value === 'string') headers.set(key, value);
    } catch {
      // not a header value Fetch accepts: no parent trace
    }
  }
  return startBindingTelemetry({
    binding: 'GRPC',
    version: metadataList(call.metadata, 'a2a-version')[0],
    tenant: undefined,
    headers,
    path: `/${A2AService.typeName}/${method.name}`,
  });
}

/** Resolves when the stream can take more, or when the call ended. */
function drained(call: Stream, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      call.off('drain', done);
      signal.removeEventListener('abort', done);
      resolve();
    };
    call.once('drain', done);
    signal.addEventListener('abort', done, { once: true });
  });
}

/** At setup, so a missing or wrong handler fails there with what to pass, not with a TypeError on the first call. */
function checkHttpHandler(http: unknown): asserts http is A2AHttpHandler {
  const candidate = http as Partial<A2AHttpHandler> | null | undefined;
  if (candidate?.requestHandler && typeof candidate.publishCard === 'function') return;
  const got =
    http === undefined || http === null
      ? String(http)
      : typeof http !== 'object'
        ? `a ${typeof http}`
        : 'executor' in http || 'agentCard' in http
          ? 'the options of createA2AHandler (pass createA2AHandler(options))'
          : 'an object that is not such a handler';
  throw new TypeError(
    `createA2AGrpcServer needs the handler that createA2AHandler({ agentCard, executor }) returns (the same one your ` +
      `HTTP adapter serves); got ${got}`,
  );
}
