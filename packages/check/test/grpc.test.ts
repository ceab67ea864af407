import { describe, expect, it } from 'vitest';
import { checkAgent, formatReport } from '../src/index.js';
import { TOKEN } from './broken-agents.js';
import { grpcGalleryAgent } from './grpc-agents.js';

const failures = (report: Awaited<ReturnType<typeof checkAgent>>) => report.results.filter((r) => r.status === 'fail');
const grpcResults = (report: Awaited<ReturnType<typeof checkAgent>>) =>
  report.results.filter((r) => r.area === 'grpc').map((r) => [r.id, r.status]);

describe('the gRPC binding (an agent that serves @a2a/grpc beside HTTP)', () => {
  it('every gRPC check runs and passes; --binding grpc narrows to it, and --send sends over gRPC', async () => {
    const agent = await grpcGalleryAgent();
    try {
      const report = await checkAgent(agent.url, { send: 'hello', timeoutMs: 5000, binding: 'grpc' });
      expect(failures(report), formatReport(report)).toEqual([]);
      expect(grpcResults(report)).toEqual([
        ['grpc.task-not-found.get', 'pass'],
        ['grpc.task-not-found.cancel', 'pass'],
        ['grpc.task-not-found.subscribe', 'pass'],
        ['grpc.invalid-params', 'pass'],
        ['grpc.invalid-params.field-named', 'pass'],
        ['grpc.version-not-supported', 'pass'],
        ['grpc.list-tasks', 'pass'],
        ['grpc.streaming', 'pass'],
      ]);
      expect(report.results.find((r) => r.id === 'jsonrpc.parse-error')?.status).toBe('skip');
      // The round trip over gRPC, the one binding the run checks (the gallery agent answers Messages: no task to read).
      const send = report.results.filter((r) => r.area === 'send' && r.status === 'pass').map((r) => r.id);
      expect(send).toEqual(['send.message', 'send.streaming']);
      expect(report.results.find((r) => r.id === 'capabilities.push-refused')?.detail).toBe(
        'GRPC ListTaskPushNotificationConfigs',
      );
      expect(report.results.find((r) => r.id === 'card.interfaces-reachable')).toMatchObject({
        status: 'pass',
        detail: '5 answered',
      });
    } finally {
      await agent.close();
    }
  });

  it('secured: a gRPC call without credentials ends with UNAUTHENTICATED, with them every check passes', async () => {
    const agent = await grpcGalleryAgent({ secured: true });
    try {
      const report = await checkAgent(agent.url, { headers: { Authorization: TOKEN }, timeoutMs: 5000 });
      expect(failures(report), formatReport(report)).toEqual([]);
      expect(report.results.find((r) => r.id === 'security.credentials-required')?.detail).toMatch(
        /GRPC UNAUTHENTICATED$/,
      );
      expect(grpcResults(report).filter(([, status]) => status === 'pass')).toHaveLength(7);
    } finally {
      await agent.close();
    }
  });
});
