import type { Check, Verdict } from './check.js';
import { ALL_CHECKS } from './checks/all-checks.js';
import { type CheckOptions, createContext, forCheck, type Interface } from './context.js';
import { discover } from './discover.js';
import { grpcTarget } from './grpc/grpc-target.js';
import { NoAnswer } from './http.js';
import { type CheckResult, type Report, summarize } from './report.js';

/**
 * Checks the agent at `url` (its origin, or its card's URL) against the v1.0.1 specification and returns the report.
 * Read-only unless `options.send` is given. Never throws for anything the agent does: an agent that cannot be reached
 * gives `reachable: false`.
 */
export async function checkAgent(
  url: string,
  options: CheckOptions = {},
  checks: Check[] = ALL_CHECKS,
): Promise<Report> {
  const started = performance.now();
  const timeoutMs = options.timeoutMs ?? 10_000;
  const found = await discover(url, options.headers ?? {}, timeoutMs);
  if (!found.found) {
    return {
      target: url,
      reachable: false,
      unreachable: found.reason,
      results: [],
      summary: summarize([]),
      durationMs: Math.round(performance.now() - started),
    };
  }
  const ctx = createContext(found, interfacesOf(found.card), options);
  ctx.shared.set('card.anonymousStatus', found.anonymousStatus);
  const results: CheckResult[] = [];
  for (const [index, check] of checks.entries()) {
    options.onProgress?.({ index, total: checks.length, id: check.id });
    const abort = new AbortController();
    const t0 = performance.now();
    const verdict = await runBounded(check, forCheck(ctx, abort.signal), abort, timeoutMs);
    results.push({
      id: check.id,
      area: check.area,
      level: check.level,
      spec: check.spec,
      title: check.title,
      status: verdict.status,
      ...(verdict.detail !== undefined && { detail: verdict.detail }),
      durationMs: Math.round(performance.now() - t0),
    });
  }
  return {
    target: url,
    cardUrl: found.cardUrl,
    reachable: true,
    results,
    summary: summarize(results),
    durationMs: Math.round(performance.now() - started),
  };
}

/**
 * A check gets a few request timeouts in all (it may make several calls); past that it is stopped and fails, so a
 * hanging agent costs each check a bounded time and the run goes on.
 */
async function runBounded(check: Check, ctx: Parameters<Check['run']>[0], abort: AbortController, timeoutMs: number) {
  const budget = timeoutMs * 4;
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<Verdict>((resolve) => {
    timer = setTimeout(() => {
      abort.abort();
      resolve({ status: 'fail', detail: `no answer within ${budget / 1000} s` });
    }, budget);
  });
  try {
    return await Promise.race([check.run(ctx), expired]);
  } catch (error) {
    if (error instanceof NoAnswer) return { status: 'fail', detail: error.message } as Verdict;
    return {
      status: 'fail',
      detail: `the check could not run: ${error instanceof Error ? error.message : String(error)}`,
    } as Verdict;
  } finally {
    clearTimeout(timer);
  }
}

/** The well-formed entries of `supportedInterfaces`, so the checks can still call an agent whose card has flaws. */
function interfacesOf(card: Record<string, unknown>): Interface[] {
  const list = Array.isArray(card.supportedInterfaces) ? card.supportedInterfaces : [];
  return list.flatMap((entry): Interface[] => {
    const i = entry as Record<string, unknown>;
    if (typeof i?.url !== 'string' || typeof i.protocolBinding !== 'string') return [];
    // A GRPC url may be a bare host:port (what gRPC servers list), the others are URLs.
    if (i.protocolBinding.toUpperCase() === 'GRPC') {
      if (!grpcTarget(i.url)) return [];
    } else {
      try {
        new URL(i.url);
      } catch {
        return [];
      }
    }
    return [
      {
        url: i.url,
        protocolBinding: i.protocolBinding,
        protocolVersion: typeof i.protocolVersion === 'string' ? i.protocolVersion : '',
        ...(typeof i.tenant === 'string' && i.tenant !== '' && { tenant: i.tenant }),
      },
    ];
  });
}
