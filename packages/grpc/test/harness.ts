import { listen } from '@a2a/adapter-testsuite';
import { type A2AHandlerOptions, type A2AHttpHandler, type AgentExecutor, createA2AHandler } from '@a2a/core';
import { createNodeHandler } from '@a2a/core/node';
import { fromBinary, fromJson, type JsonValue, toBinary, toJson } from '@bufbuild/protobuf';
import * as grpc from '@grpc/grpc-js';
import { A2AService } from '../src/gen/lf/a2a/v1/a2a_pb.js';
import { type A2AGrpcServer, type A2AGrpcServerOptions, createA2AGrpcServer } from '../src/index.js';

export const card = {
  name: 'gRPC test agent',
  description: 'An agent for the gRPC binding tests',
  version: '1.0.0',
  capabilities: { streaming: true, pushNotifications: true, extensions: [{ uri: 'urn:test:ext' }] },
  skills: [{ id: 'echo', name: 'Echo', description: 'Echoes', tags: ['test'] }],
};

/**
 * Behaviour by the message's first word: `reply`, `ask` (input required), `gated <name>` (waits), `many <n>` (n
 * artifact chunks), else complete.
 */
export function testExecutor() {
  const gates = new Map<string, { promise: Promise<void>; resolve: () => void }>();
  const gate = (name: string) => {
    let entry = gates.get(name);
    if (!entry) {
      let resolve = () => {};
      const promise = new Promise<void>((r) => {
        resolve = r;
      });
      entry = { promise, resolve };
      gates.set(name, entry);
    }
    return entry;
  };
  const seen: { user: string | undefined; tenant: string | undefined; extensions: readonly string[] }[] = [];
  const executor: AgentExecutor = {
    async execute(ctx) {
      seen.push({ user: ctx.user?.id, tenant: ctx.tenant, extensions: ctx.extensions });
      const text = ctx.message.parts[0]?.text ?? '';
      const [word, arg = ''] = text.split(' ');
      if (word === 'reply') return ctx.reply(`you said ${arg}`);
      if (word === 'ask' && !ctx.task) return ctx.inputRequired('what is your name?');
      if (word === 'many') {
        for (let i = 0; i < Number(arg); i++) void ctx.artifact({ artifactId: 'many', text: `c${i}`, append: i > 0 });
        return ctx.complete();
      }
      if (word === 'gated') {
        await ctx.working('waiting');
        await gate(arg).promise;
        await ctx.artifact({ artifactId: 'out', text: 'after the gate' });
        return ctx.complete('done');
      }
      return ctx.complete(`completed ${text}`);
    },
  };
  return { executor, release: (name: string) => gate(name).resolve(), seen };
}

export interface Harness {
  http: A2AHttpHandler;
  httpUrl: string;
  grpc: A2AGrpcServer;
  address: string;
  client: A2AClient;
  close(): Promise<void>;
}

/** HTTP (node:http) and gRPC listeners on 127.0.0.1:0 over one handler; `x-user` / `authorization` name the caller. */
export async function startHarness(
  options: { handler?: Partial<A2AHandlerOptions>; grpc?: A2AGrpcServerOptions; executor?: AgentExecutor } = {},
): Promise<Harness> {
  const http = createA2AHandler({
    agentCard: card,
    executor: options.executor ?? testExecutor().executor,
    onError: () => {},
    ...options.handler,
  } as A2AHandlerOptions);
  const { url: httpUrl, close: closeHttp } = await listen((req, res) => void createNodeHandler(http)(req, res));
  const grpcServer = createA2AGrpcServer(http, {
    onError: () => {},
    context: (metadata) => {
      const token = /^Bearer (.+)$/.exec(String(metadata.get('authorization')[0] ?? ''))?.[1];
      return token ? { user: { id: token } } : undefined;
    },
    ...options.grpc,
  });
  const { address } = await grpcServer.listen();
  const client = a2aClient(address);
  return {
    http,
    httpUrl,
    grpc: grpcServer,
    address,
    client,
    async close() {
      client.close();
      await grpcServer.close({ timeoutMs: 1000 });
      await closeHttp();
      await http.close({ timeoutMs: 100 });
    },
  };
}

type Json = Record<string, unknown>;
export interface A2AClient {
  raw: grpc.Client;
  unary(method: string, request: Json, metadata?: Record<string, string>): Promise<Json>;
  unaryWithMetadata(
    method: string,
    request: Json,
    metadata?: Record<string, string>,
  ): Promise<{ response: Json; headers: grpc.Metadata }>;
  stream(method: string, request: Json, metadata?: Record<string, string>): grpc.ClientReadableStream<Json>;
  /** Sends raw bytes to a method path (for malformed input). */
  rawUnary(path: string, bytes: Uint8Array): Promise<Uint8Array>;
  close(): void;
}

const toMetadata = (entries: Record<string, string> = {}) => {
  const metadata = new grpc.Metadata();
  for (const [k, v] of Object.entries(entries)) metadata.set(k, v);
  return metadata;
};

/** A client of the service speaking proto JSON, with the generated schemas (a test-side codec, not the server's). */
export function a2aClient(address: string, options: grpc.ClientOptions = {}): A2AClient {
  const raw = new grpc.Client(address, grpc.credentials.createInsecure(), options);
  const method = (name: string) => {
    const m = A2AService.methods.find((x) => x.name === name);
    if (!m) throw new Error(`no method ${name}`);
    return m;
  };
  const serialize = (name: string) => (json: Json) =>
    Buffer.from(toBinary(method(name).input, fromJson(method(name).input, json as JsonValue)));
  const deserialize = (name: string) => (bytes: Buffer) =>
    toJson(method(name).output, fromBinary(method(name).output, bytes)) as Json;
  const path = (name: string) => `/lf.a2a.v1.A2AService/${name}`;
  const unaryWithMetadata: A2AClient['unaryWithMetadata'] = (name, request, metadata) =>
    new Promise((resolve, reject) => {
      let headers = new grpc.Metadata();
      const call = raw.makeUnaryRequest(
        path(name),
        serialize(name),
        deserialize(name),
        request,
        toMetadata(metadata),
        (error, response) => (error ? reject(error) : resolve({ response: response as Json, headers })),
      );
      call.on('metadata', (m) => {
        headers = m;
      });
    });
  return {
    raw,
    unaryWithMetadata,
    unary: async (name, request, metadata) => (await unaryWithMetadata(name, request, metadata)).response,
    stream: (name, request, metadata) =>
      raw.makeServerStreamRequest(path(name), serialize(name), deserialize(name), request, toMetadata(metadata)),
    rawUnary: (p, bytes) =>
      new Promise((resolve, reject) => {
        raw.makeUnaryRequest(
          p,
          (b: Uint8Array) => Buffer.from(b),
          (b: Buffer) => new Uint8Array(b),
          bytes,
          (error, response) => (error ? reject(error) : resolve(response as Uint8Array)),
        );
      }),
    close: () => raw.close(),
  };
}

/** Every message of a server stream, or the error it ended with. */
export function collect(
  stream: grpc.ClientReadableStream<Json>,
): Promise<{ events: Json[]; error?: grpc.ServiceError }> {
  return new Promise((resolve) => {
    const events: Json[] = [];
    stream.on('data', (e: Json) => events.push(e));
    stream.on('error', (error: grpc.ServiceError) => resolve({ events, error }));
    stream.on('end', () => resolve({ events }));
  });
}

export const userMessage = (text: string, extra: Json = {}) => ({
  message: { role: 'ROLE_USER', messageId: `m-${Math.random().toString(36).slice(2)}`, parts: [{ text }], ...extra },
});
