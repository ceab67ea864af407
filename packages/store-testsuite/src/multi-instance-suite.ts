import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, type Instance, instanceStarter, message, openStream, rest, rpc } from './cluster-harness.js';
import { type ClusterBackend, type ClusterSuiteOptions, startAll } from './cluster-suite-options.js';

const LEASE_TTL_MS = 600;

/**
 * Three instances of a server on one backend (`backend` opens it, `script` serves it): a cancel from one instance
 * aborts the executor on another and ends a third's stream; a stream resumes on another instance with Last-Event-ID
 * after its instance is killed; a killed instance's task ends FAILED after the lease (`A2A_LEASE_TTL_MS`, 600 ms here)
 * while the others keep serving.
 */
export function describeMultiInstance(backendName: string, options: ClusterSuiteOptions): void {
  const startInstance = instanceStarter(options.script);
  describe(`three instances on one ${backendName}`, () => {
    let backend: ClusterBackend | undefined;
    let env: Record<string, string>;
    let a: Instance;
    let b: Instance;
    let c: Instance;

    beforeAll(async () => {
      backend = await options.backend();
      env = { ...backend.env, A2A_LEASE_TTL_MS: String(LEASE_TTL_MS) };
      [a, b, c] = (await startAll(startInstance, ['a', 'b', 'c'], env)) as [Instance, Instance, Instance];
    });
    afterAll(async () => {
      await Promise.all([a, b, c].map((i) => i?.stop()));
      await backend?.release();
    });

    const startTask = async (on: Instance, text: string) => {
      const sent = await rest(on.url, 'POST', '/message:send', {
        message: message(text),
        configuration: { returnImmediately: true },
      });
      expect(sent.status).toBe(200);
      const id = sent.body.task.id as string;
      await eventually(
        async () => (await rest(on.url, 'GET', `/tasks/${id}`)).body.status.state === 'TASK_STATE_WORKING',
      );
      return id;
    };

    it('send on A, subscribe on B, cancel from C: the executor on A is aborted and B sees CANCELED', async () => {
      const id = await startTask(a, 'hang');
      const stream = await openStream(b.url, `/tasks/${id}:subscribe`, {});
      expect(stream.status).toBe(200);
      const snapshot = await stream.next();
      expect(JSON.parse(snapshot?.data ?? '{}').task.status.state).toBe('TASK_STATE_WORKING');
      expect(snapshot?.id).toBe('2');

      const canceled = await rpc(c.url, 'CancelTask', { id });
      expect(canceled.body.result.status.state).toBe('TASK_STATE_CANCELED');
      const update = await stream.next();
      expect(update?.id).toBe('3');
      expect(JSON.parse(update?.data ?? '{}').statusUpdate.status.state).toBe('TASK_STATE_CANCELED');
      expect(await stream.next()).toBeUndefined(); // the stream ends after the terminal state
      await eventually(() => a.aborted.includes(id));
      expect((await rest(a.url, 'GET', `/tasks/${id}`)).body.status.state).toBe('TASK_STATE_CANCELED');
    });

    it('a client resumes a stream on another instance with Last-Event-ID after its instance is killed', async () => {
      const id = await startTask(a, 'steps 30 delay 40');
      const first = await openStream(b.url, `/tasks/${id}:subscribe`, {});
      const seen: number[] = [];
      const snapshot = await first.next();
      seen.push(Number(snapshot?.id));
      for (let i = 0; i < 5; i++) seen.push(Number((await first.next())?.id));
      await b.stop(); // SIGKILL the instance serving the stream
      await first.next().catch(() => undefined);

      const lastEventId = String(seen.at(-1));
      const resumed = await openStream(c.url, `/tasks/${id}:subscribe`, {}, { 'last-event-id': lastEventId });
      expect(resumed.status).toBe(200);
      let last: { task?: unknown; statusUpdate?: { status: { state: string } } } = {};
      for (let event = await resumed.next(); event; event = await resumed.next()) {
        last = JSON.parse(event.data);
        // With nothing newer than Last-Event-ID yet, the stream opens with the current snapshot at that same id.
        if (last.task) expect(event.id).toBe(lastEventId);
        else seen.push(Number(event.id));
      }
      const stored = await rest(a.url, 'GET', `/tasks/${id}`);
      // Snapshot at version 2, then every later version exactly once, up to the final one.
      expect(seen).toEqual(Array.from({ length: seen.length }, (_, i) => i + (seen[0] ?? 0)));
      expect(stored.body.artifacts[0].parts.map((p: { text: string }) => p.text).join('')).toBe(
        Array.from({ length: 30 }, (_, i) => `${i},`).join(''),
      );
      b = await startInstance('b', env);
    });

    it('when the instance running a task is killed, the task ends FAILED after the lease and others keep serving', async () => {
      const id = await startTask(a, 'hang');
      const stream = await openStream(b.url, `/tasks/${id}:subscribe`, {});
      await stream.next(); // snapshot
      const killedAt = Date.now();
      await a.stop();
      const update = await stream.next(15_000);
      const status = JSON.parse(update?.data ?? '{}').statusUpdate.status;
      expect(status.state).toBe('TASK_STATE_FAILED');
      expect(status.message.parts[0].text).toMatch(/Executor lost: instance a/);
      expect(Date.now() - killedAt).toBeGreaterThanOrEqual(LEASE_TTL_MS / 2);
      expect((await rest(c.url, 'GET', `/tasks/${id}`)).body.status.state).toBe('TASK_STATE_FAILED');
      // The survivors still serve new work.
      const echo = await rest(c.url, 'POST', '/message:send', { message: message('still here') });
      expect(echo.body.task.status.state).toBe('TASK_STATE_COMPLETED');
    });
  });
}
