/** `--name value`, `--name=value` and bare `--flag` options; a lone `--` (as pnpm/npm pass it) is ignored. */
export function parseArgs(argv: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === '--' || !arg.startsWith('--')) continue;
    const eq = arg.indexOf('=');
    if (eq > 0) {
      out[arg.slice(2, eq)] = arg.slice(eq + 1);
      continue;
    }
    const next = argv[i + 1];
    if (next !== undefined && !next.startsWith('--')) {
      out[arg.slice(2)] = next;
      i++;
    } else out[arg.slice(2)] = 'true';
  }
  return out;
}

export function numberArg(args: Record<string, string>, name: string, fallback: number): number {
  const raw = args[name] ?? process.env[`BENCH_${name.toUpperCase().replaceAll('-', '_')}`];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value)) throw new Error(`--${name} must be a number (got ${raw})`);
  return value;
}
