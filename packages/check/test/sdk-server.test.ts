import { describe, expect, it } from 'vitest';
import { checkAgent, exitCode, formatReport } from '../src/index.js';
import { startSdkAgent } from './sdk-agent.js';

// What a2a-check reports about the official SDK's server, its gRPC service included (the README's example report):
// one MUST fails, the SDK
// answering -32602 where JSON-RPC 2.0 and §9.5 say -32600 (a request object without "method").
describe('a2a-check against the official @a2a-js/sdk server', () => {
  it('reports the SDK answering an invalid request with -32602, and nothing else', async () => {
    const agent = await startSdkAgent();
    try {
      const report = await checkAgent(agent.url, { timeoutMs: 5000, send: 'hello', hostile: true });
      const failed = report.results.filter((r) => r.status === 'fail');
      expect(
        failed.map((r) => [r.id, r.detail]),
        formatReport(report),
      ).toEqual([
        ['jsonrpc.invalid-request', 'expected -32600 InvalidRequest, got -32602 "Invalid JSON-RPC Request."'],
      ]);
      const send = report.results.filter((r) => r.area === 'send');
      expect(send.every((r) => r.status === 'pass')).toBe(true);
      expect(send).toHaveLength(5);
      // Its gRPC service: every gRPC check ran and passed.
      const grpc = report.results.filter((r) => r.area === 'grpc');
      expect(grpc.map((r) => r.status)).toEqual(grpc.map(() => 'pass'));
      expect(grpc).toHaveLength(8);
      expect(exitCode(report)).toBe(1);
    } finally {
      await agent.close();
    }
  });
});
