import type { Summary } from './load.js';

export interface LoadRow {
  adapter: string;
  scenario?: string;
  result?: Summary;
  raw?: Summary;
  xRaw?: number;
  sliceRatios?: number[];
  skipped?: string;
  error?: string;
  [key: string]: unknown;
}

export interface MemoryRow {
  adapter: string;
  growth?: Record<string, unknown> | undefined;
  retained?: Record<string, unknown> | undefined;
  long?: Record<string, unknown> | undefined;
}

export interface Report {
  when: string;
  machine: string;
  options: Record<string, unknown>;
  load: LoadRow[];
  memory: MemoryRow[];
}

/** Ratio targets of issue 30 (× the same framework's raw JSON endpoint). */
export const TARGETS: Record<string, number> = {
  send: 0.75,
  stream: 0.5,
  card: 1.3,
};

/**
 * Issue 39's targets for the slower frameworks, whose raw echo is cheap beside a SendMessage's engine (Koa, Hapi), by
 * scenario; the other scenarios and frameworks keep {@link TARGETS}.
 */
export const FRAMEWORK_TARGETS: Record<string, Record<string, number>> = {
  koa: { send: 0.6, stream: 0.4 },
  hapi: { send: 0.7, stream: 0.5 },
  express: { send: 0.75, stream: 0.5 },
  nestjs: { send: 0.75, stream: 0.5 },
};

/** The × raw target of one adapter's scenario, or `undefined` where none is set. */
export function targetFor(adapter: string, scenario: string | undefined): number | undefined {
  if (scenario === undefined) return undefined;
  return FRAMEWORK_TARGETS[adapter]?.[scenario] ?? TARGETS[scenario];
}

/** Server CPU (user + system, all threads) per answered request, in µs. */
const cpuPerRequest = (s: Summary | undefined) =>
  s?.serverCpuPct === undefined || !s.rps ? undefined : (s.serverCpuPct * 1e4) / s.rps;

const n0 = (x: number | undefined) =>
  x === undefined || !Number.isFinite(x) ? '–' : Math.round(x).toLocaleString('en-US');
const n2 = (x: number | undefined) => (x === undefined || !Number.isFinite(x) ? '–' : x.toFixed(2));

export function renderReport(report: Report): string {
  const lines = [
    `# A2A bench — ${report.when}`,
    '',
    `Machine: ${report.machine}.`,
    `Settings: ${JSON.stringify(report.options)}.`,
    '',
    "× raw = req/s ÷ req/s of the same framework's plain JSON POST endpoint in the same process, measured in",
    "alternating slices (the comparable figure); × SDK = req/s ÷ the official SDK's req/s for the same scenario",
    "(separate runs, noisier). p50/p99 in ms at the fixed concurrency. CPU = the server process's CPU time per",
    'answered request (µs; ours / raw), and × raw by CPU = raw µs ÷ ours: steadier than req/s on a shared machine.',
    '',
    '| adapter | scenario | req/s | p50 | p99 | raw req/s | × raw | CPU µs (raw) | × raw by CPU | × SDK | target |',
    '|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---|',
  ];
  const sdk = new Map(
    report.load.filter((r) => r.adapter === 'sdk' && r.result).map((r) => [r.scenario, r.result as Summary]),
  );
  for (const row of report.load) {
    if (!row.result) {
      lines.push(
        `| ${row.adapter} | ${row.scenario ?? '?'} | ${row.skipped ? 'n/a' : 'failed'} | | | | | | | | ${(row.skipped ?? row.error ?? '').slice(0, 80).replaceAll('|', '/')} |`,
      );
      continue;
    }
    const r = row.result;
    const rate = r.eventsPerSec ? `${n0(r.rps)} (${n0(r.eventsPerSec)} ev/s)` : n0(r.rps);
    const peer = sdk.get(row.scenario);
    const xSdk = row.adapter !== 'sdk' && peer ? n2(r.rps / peer.rps) : '';
    const goal = targetFor(row.adapter, row.scenario);
    const verdict =
      goal === undefined || row.adapter === 'sdk' ? '' : `≥ ${goal} ${(row.xRaw ?? 0) >= goal ? '✅' : '❌'}`;
    const failed = r.failed ? ` (${r.failed} failed)` : '';
    const cpu = cpuPerRequest(r);
    const rawCpu = cpuPerRequest(row.raw);
    const xCpu = cpu && rawCpu ? n2(rawCpu / cpu) : '–';
    lines.push(
      `| ${row.adapter} | ${row.scenario} | ${rate}${failed} | ${n2(r.p50)} | ${n2(r.p99)} | ${n0(row.raw?.rps)} | ${n2(row.xRaw)} | ${n0(cpu)} (${n0(rawCpu)}) | ${xCpu} | ${xSdk} | ${verdict} |`,
    );
  }
  lines.push(...compatLines(report.load));
  if (report.memory.length) {
    lines.push('', '## Memory and long streams', '');
    lines.push(
      '| adapter | heap / RSS after growth (MB, per sample) | heap per retained task | ListTasks p50 / p99: pageSize 1; 50; card GET (round-trip floor) | 4 000-event stream |',
      '|---|---|---:|---|---:|',
    );
    for (const m of report.memory) {
      const points = (m.growth?.points as { tasks: number; heapMB: number; rssMB: number }[] | undefined) ?? [];
      const growth = points.map((p) => `${n0(p.tasks)}: ${n0(p.heapMB)} / ${n0(p.rssMB)}`).join('; ');
      const heapPerTask = m.retained?.heapPerTaskBytes as number | undefined;
      const listed =
        (m.retained?.list as { pageSize: number; totalSize: number; p50: number; p99: number }[] | undefined) ?? [];
      const list = listed.map((l) => `${n2(l.p50)} / ${n2(l.p99)} ms`).join('; ');
      const stored = listed[0] ? ` (${n0(listed[0].totalSize)} tasks)` : '';
      const long = m.long ? `${n2(m.long.seconds as number)} s${m.long.ok ? '' : ' (incomplete)'}` : '–';
      lines.push(
        `| ${m.adapter} | ${growth || '–'} | ${heapPerTask === undefined ? '–' : `${n0(heapPerTask)} B`} | ${list || '–'}${stored} | ${long} |`,
      );
    }
  }
  return `${lines.join('\n')}\n`;
}

/** Target of the @a2a/sdk-compat rows: at most this much slower than the same agent written natively. */
export const COMPAT_TARGET = 0.1;

/**
 * `<adapter>+compat` rows (the echo agent written for @a2a-js/sdk 1.x, through @a2a/sdk-compat's `fromSdkExecutor`)
 * next to the same adapter's native rows: server CPU per request and × raw, each side from its own run (its raw
 * baseline taken in the same slices), and how much slower the compat path is by each.
 */
export function compatLines(load: LoadRow[]): string[] {
  const compat = load.filter((r) => r.adapter.endsWith('+compat') && r.result);
  if (!compat.length) return [];
  const lines = [
    '',
    '## SDK executors through @a2a/sdk-compat vs the same agent written natively',
    '',
    'Slower by CPU = compat CPU µs ÷ native CPU µs − 1; by × raw = native × raw ÷ compat × raw − 1 (each × raw against',
    `its own run's raw slices). Target: ≤ ${COMPAT_TARGET * 100} % slower (by CPU, the steadier figure).`,
    '',
    '| adapter | scenario | native req/s | compat req/s | native × raw | compat × raw | native CPU µs | compat CPU µs | slower by CPU | slower by × raw | target |',
    '|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---|',
  ];
  const pct = (x: number | undefined) =>
    x === undefined || !Number.isFinite(x) ? '–' : `${x >= 0 ? '+' : ''}${(x * 100).toFixed(1)} %`;
  for (const row of compat) {
    const base = row.adapter.slice(0, -'+compat'.length);
    const native = load.find((r) => r.adapter === base && r.scenario === row.scenario && r.result);
    const cpu = cpuPerRequest(row.result);
    const nativeCpu = cpuPerRequest(native?.result);
    const byCpu = cpu && nativeCpu ? cpu / nativeCpu - 1 : undefined;
    const byRaw = row.xRaw && native?.xRaw ? native.xRaw / row.xRaw - 1 : undefined;
    const verdict = byCpu === undefined ? '' : `≤ +${COMPAT_TARGET * 100} % ${byCpu <= COMPAT_TARGET ? '✅' : '❌'}`;
    lines.push(
      `| ${base} | ${row.scenario} | ${n0(native?.result?.rps)} | ${n0(row.result?.rps)} | ${n2(native?.xRaw)} | ${n2(row.xRaw)} | ${n0(nativeCpu)} | ${n0(cpu)} | ${pct(byCpu)} | ${pct(byRaw)} | ${verdict} |`,
    );
  }
  return lines;
}
