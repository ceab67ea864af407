import type { A2ARequestHandler } from '../server/request-handler.js';

export interface HealthOptions {
  /** Path relative to the mount point (or base path). Default '/healthz'. */
  path?: string;
  /** How long the store's `ping()` may take before the instance is reported not ready. Default 2 s. */
  timeoutMs?: number;
}

const NO_STORE = { 'content-type': 'application/json', 'cache-control': 'no-store' };

/**
 * The readiness answer for load balancers: 200 `{"status":"ok"}` while the task store answers its `ping()` in time;
 * 503 with the reason while it does not, or once the handler is shutting down (so traffic drains before it stops).
 */
export function healthCheck(engine: A2ARequestHandler, options: HealthOptions) {
  const timeoutMs = options.timeoutMs ?? 2000;
  return async (method: string): Promise<Response> => {
    const problem = engine.closing ? 'shutting down' : await storeProblem(engine, timeoutMs);
    const body = problem ? { status: 'unavailable', reason: problem } : { status: 'ok' };
    return new Response(method === 'HEAD' ? null : JSON.stringify(body), {
      status: problem ? 503 : 200,
      headers: NO_STORE,
    });
  };
}

async function storeProblem(engine: A2ARequestHandler, timeoutMs: number): Promise<string | undefined> {
  const ping = engine.store.ping?.bind(engine.store);
  if (!ping) return undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<string>((resolve) => {
    timer = setTimeout(() => resolve(`task store did not answer within ${timeoutMs} ms`), timeoutMs);
  });
  try {
    return await Promise.race([ping().then(() => undefined), timeout]);
  } catch (error) {
    // The reason names the failure, never a connection string or stack.
    engine.log.warn('readiness check: the task store is unreachable', { err: error });
    return 'task store unreachable';
  } finally {
    clearTimeout(timer);
  }
}
