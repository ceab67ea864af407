import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, type Instance, instanceStarter, message, openStream, rest } from './cluster-harness.js';
import { type ClusterBackend, type ClusterSuiteOptions, startAll } from './cluster-suite-options.js';

// Long on purpose: a takeover that waited for the lease to expire would time the test out.
const LEASE_TTL_MS = 60_000;

/**
 * SIGTERM on the instance running a task and serving its stream, with a second instance on the same backend: see the
 * cases. The instances get `A2A_SHUTDOWN_TIMEOUT_MS=5000` and a lease long enough that only a handover passes.
 */
export function describeShutdown(options: ClusterSuiteOptions): void {
  const startInstance = instanceStarter(options.script);
  describe('SIGTERM on the instance running a task and serving its stream', () => {
    let backend: ClusterBackend | undefined;
    let a: Instance;
    let b: Instance;

    beforeAll(async () => {
      backend = await options.backend();
      const env = { ...backend.env, A2A_LEASE_TTL_MS: String(LEASE_TTL_MS), A2A_SHUTDOWN_TIMEOUT_MS: '5000' };
      [a, b] = (await startAll(startInstance, ['a', 'b'], env)) as [Instance, Instance];
    });
    afterAll(async () => {
      await Promise.all([a, b].map((i) => i?.stop()));
      await backend?.release();
    });

    const startTask = async (on: Instance, text: string) => {
      const sent = await rest(on.url, 'POST', '/message:send', {
        message: message(text),
        configuration: { returnImmediately: true },
      });
      return sent.body.task.id as string;
    };

    it('the stream ends cleanly, new work is refused, the running task finishes, the stuck one fails at once', async () => {
      const steps = await startTask(a, 'steps 8 delay 100');
      const stuck = await startTask(a, 'hang');
      await eventually(
        async () => (await rest(b.url, 'GET', `/tasks/${stuck}`)).body.status.state === 'TASK_STATE_WORKING',
      );
      const stream = await openStream(a.url, `/tasks/${steps}:subscribe`, {});
      let lastId = (await stream.next())?.id;
      lastId = (await stream.next())?.id ?? lastId;

      const exited = a.terminate();
      // A's stream ends without an error and without the task's end: the client resubscribes elsewhere.
      const seen: string[] = [];
      for (let event = await stream.next(); event; event = await stream.next()) {
        expect(event.event).not.toBe('error');
        lastId = event.id ?? lastId;
        seen.push(JSON.parse(event.data).statusUpdate?.status.state);
      }
      expect(stream.failed).toBeUndefined();
      // While A drains, it refuses new work with 503.
      const refused = await rest(a.url, 'POST', '/message:send', { message: message('late') });
      expect(refused.status).toBe(503);
      expect(refused.body.error.message).toMatch(/shutting down/);

      // B takes the stream over from the last id; A's execution finishes the task within the grace period.
      const resumed = await openStream(b.url, `/tasks/${steps}:subscribe`, {}, { 'last-event-id': String(lastId) });
      let final: string | undefined;
      for (let event = await resumed.next(); event; event = await resumed.next()) {
        final = JSON.parse(event.data).statusUpdate?.status.state ?? final;
      }
      expect(final).toBe('TASK_STATE_COMPLETED');

      // A exits cleanly after its grace period; the task that would never finish is FAILED by then, not after the
      // 60 s lease, and A left no lease behind.
      expect(await exited).toBe(0);
      const failed = (await rest(b.url, 'GET', `/tasks/${stuck}`)).body;
      expect(failed.status.state).toBe('TASK_STATE_FAILED');
      expect(failed.status.message.parts[0].text).toMatch(/shut down before the task finished/);
      const { body } = await rest(b.url, 'POST', '/message:send', { message: message('still here') });
      expect(body.task.status.state).toBe('TASK_STATE_COMPLETED');
    });
  });
}
