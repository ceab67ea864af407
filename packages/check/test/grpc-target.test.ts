import { describe, expect, it } from 'vitest';
import { grpcTarget } from '../src/grpc/grpc-target.js';

describe("a GRPC interface's url as a channel target", () => {
  it.each([
    ['127.0.0.1:50051', { target: '127.0.0.1:50051', secure: false }],
    ['localhost:50051', { target: 'localhost:50051', secure: false }],
    ['[::1]:50051', { target: '[::1]:50051', secure: false }],
    ['http://127.0.0.1:50051', { target: '127.0.0.1:50051', secure: false }],
    ['https://grpc.example.com/a2a', { target: 'grpc.example.com:443', secure: true }],
    ['https://grpc.example.com:8443', { target: 'grpc.example.com:8443', secure: true }],
  ])('%s', (url, expected) => expect(grpcTarget(url)).toEqual(expected));

  it.each(['ftp://x:1', 'grpc.example.com', 'not a target', '127.0.0.1:port'])('%s: none', (url) =>
    expect(grpcTarget(url)).toBeUndefined(),
  );
});
