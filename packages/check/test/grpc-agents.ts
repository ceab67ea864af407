import { type AddressInfo, createServer, type Socket } from 'node:net';
import type { Listening } from '@a2a/adapter-testsuite';
import type { A2AHttpHandler } from '@a2a/core';
import { type A2AGrpcServiceOptions, createA2AGrpcServer, createA2AGrpcService } from '@a2a/grpc';
import * as grpc from '@grpc/grpc-js';
import { type BrokenAgent, closedUrl, galleryHandler, TOKEN } from './broken-agents.js';
import { serveFetch } from './fetch-server.js';

type Caller = NonNullable<A2AGrpcServiceOptions['context']>;

/** The caller of a gRPC call: the gallery's token in `authorization` metadata. */
export const grpcCaller: Caller = (metadata) =>
  metadata.get('authorization')[0] === TOKEN ? { user: { id: 'tester' } } : undefined;

/** The gallery agent over HTTP and gRPC (@a2a/grpc on 127.0.0.1:0, listed in its card), one handler for both. */
export async function grpcGalleryAgent(options: { secured?: boolean; context?: Caller } = {}): Promise<Listening> {
  const a2a = galleryHandler(options.secured);
  const server = createA2AGrpcServer(a2a, { onError: () => {}, context: options.context ?? grpcCaller });
  await server.listen();
  const http = await serveFetch((request) => a2a.fetch(request));
  return { ...http, close: async () => void (await Promise.all([server.close({ timeoutMs: 100 }), http.close()])) };
}

type Implementation = grpc.UntypedServiceImplementation;

/**
 * The gallery agent with a gRPC listener of its own whose service `edit` changes (one method broken), bound on
 * 127.0.0.1:0 and listed in the card.
 */
export async function brokenGrpcAgent(edit: (implementation: Implementation) => Implementation): Promise<Listening> {
  const a2a: A2AHttpHandler = galleryHandler();
  const service = createA2AGrpcService(a2a, { onError: () => {}, context: grpcCaller });
  const server = new grpc.Server();
  server.addService(service.definition, edit({ ...service.implementation }));
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (error, bound) =>
      error ? reject(error) : resolve(bound),
    ),
  );
  a2a.addInterface({ url: `127.0.0.1:${port}`, protocolBinding: 'GRPC', protocolVersion: '1.0' });
  const http = await serveFetch((request) => a2a.fetch(request));
  return { ...http, close: async () => void (await Promise.all([server.forceShutdown(), http.close()])) };
}

/** A unary method whose NOT_FOUND answers become INTERNAL "Internal error". */
export const notFoundAsInternal =
  (method: string) =>
  (implementation: Implementation): Implementation => {
    const original = implementation[method] as grpc.handleUnaryCall<unknown, unknown>;
    implementation[method] = ((call: grpc.ServerUnaryCall<unknown, unknown>, callback: grpc.sendUnaryData<unknown>) =>
      original(call, (error, value) =>
        error?.code === grpc.status.NOT_FOUND
          ? callback({ code: grpc.status.INTERNAL, details: 'Internal error' })
          : callback(error, value),
      )) as grpc.handleUnaryCall<unknown, unknown>;
    return implementation;
  };

/** A unary method whose NOT_FOUND errors end without `grpc-status-details-bin` (code and message kept). */
const withoutDetails =
  (method: string) =>
  (implementation: Implementation): Implementation => {
    const original = implementation[method] as grpc.handleUnaryCall<unknown, unknown>;
    implementation[method] = ((call: grpc.ServerUnaryCall<unknown, unknown>, callback: grpc.sendUnaryData<unknown>) =>
      original(call, (error, value) =>
        error?.code === grpc.status.NOT_FOUND
          ? callback({ code: error.code, details: error.details ?? '' })
          : callback(error, value),
      )) as grpc.handleUnaryCall<unknown, unknown>;
    return implementation;
  };

/** The gallery's gRPC defects: each caught by the one check meant for it. */
export const GRPC_BROKEN_AGENTS: BrokenAgent[] = [
  {
    defect: 'the card lists a GRPC interface nothing serves',
    caughtBy: 'card.interfaces-reachable',
    message: /GRPC 127\.0\.0\.1:\d+: connection refused/,
    async start() {
      const a2a = galleryHandler();
      a2a.addInterface({ url: new URL(await closedUrl()).host, protocolBinding: 'GRPC', protocolVersion: '1.0' });
      return serveFetch((request) => a2a.fetch(request));
    },
  },
  {
    defect: 'the card lists a GRPC interface that accepts connections and never answers',
    caughtBy: 'card.interfaces-reachable',
    message: /GRPC 127\.0\.0\.1:\d+: no answer within 1 s/,
    options: { timeoutMs: 1000 },
    async start() {
      const a2a = galleryHandler();
      const sockets = new Set<Socket>();
      const silent = createServer((socket) => void sockets.add(socket).add(socket.on('error', () => {})));
      await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
      const { port } = silent.address() as AddressInfo;
      a2a.addInterface({ url: `127.0.0.1:${port}`, protocolBinding: 'GRPC', protocolVersion: '1.0' });
      const http = await serveFetch((request) => a2a.fetch(request));
      return {
        ...http,
        close: async () => {
          for (const socket of sockets) socket.destroy();
          await new Promise((resolve) => silent.close(resolve));
          await http.close();
        },
      };
    },
  },
  {
    defect: 'gRPC GetTask of an unknown id ends with INTERNAL instead of NOT_FOUND',
    caughtBy: 'grpc.task-not-found.get',
    message: /expected NOT_FOUND TaskNotFound, got INTERNAL "Internal error"/,
    start: () => brokenGrpcAgent(notFoundAsInternal('GetTask')),
  },
  {
    defect: 'gRPC GetTask NOT_FOUND without the ErrorInfo detail (no grpc-status-details-bin)',
    caughtBy: 'grpc.task-not-found.get',
    message: /no google\.rpc\.ErrorInfo in the status details \(grpc-status-details-bin\) \(§10\.6 MUST/,
    start: () => brokenGrpcAgent(withoutDetails('GetTask')),
  },
  {
    defect: 'gRPC CancelTask of an unknown id ends with INTERNAL instead of NOT_FOUND',
    caughtBy: 'grpc.task-not-found.cancel',
    message: /expected NOT_FOUND TaskNotFound, got INTERNAL "Internal error"/,
    start: () => brokenGrpcAgent(notFoundAsInternal('CancelTask')),
  },
  {
    defect: 'gRPC serves calls without the credentials the card requires',
    caughtBy: 'security.credentials-required',
    message: /GRPC served it without credentials: NOT_FOUND/,
    options: { headers: { Authorization: TOKEN } },
    start: () => grpcGalleryAgent({ secured: true, context: () => ({ user: { id: 'anyone' } }) }),
  },
  {
    defect: 'gRPC push config calls answer though push is not declared',
    caughtBy: 'capabilities.push-refused',
    message: /GRPC ListTaskPushNotificationConfigs: expected FAILED_PRECONDITION PushNotificationNotSupported, got OK/,
    start: () =>
      brokenGrpcAgent((implementation) => ({
        ...implementation,
        ListTaskPushNotificationConfigs: ((_call: unknown, callback: grpc.sendUnaryData<Buffer>) =>
          callback(null, Buffer.alloc(0))) as grpc.handleUnaryCall<unknown, Buffer>,
      })),
  },
];
