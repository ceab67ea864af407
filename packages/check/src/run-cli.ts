import { writeFileSync } from 'node:fs';
import { checkAgent } from './check-agent.js';
import { parseCliArgs, USAGE } from './cli-args.js';
import { toJUnit } from './output/junit.js';
import { formatReport } from './output/terminal.js';
import { exitCode, summaryLine } from './report.js';

/** Where the command writes: process.stdout/stderr in the bin, collectors in tests. */
export interface CliStream {
  write(text: string): unknown;
  isTTY?: boolean;
}

export interface CliIo {
  stdout: CliStream;
  stderr: CliStream;
  env: Record<string, string | undefined>;
}

/**
 * The `a2a-check` command: parse, run, print (text, or JSON with the summary on stderr), write JUnit if asked; returns
 * the exit code (0 no MUST failed, 1 a MUST failed, 2 unreachable or bad arguments). A progress line goes to stderr
 * only on a terminal, colour to stdout only on a terminal without NO_COLOR.
 */
export async function runCli(argv: string[], io: CliIo): Promise<number> {
  let args: ReturnType<typeof parseCliArgs>;
  try {
    args = parseCliArgs(argv);
  } catch (error) {
    io.stderr.write(`a2a-check: ${error instanceof Error ? error.message : String(error)}\n\n${USAGE}\n`);
    return 2;
  }
  if (args === 'help') {
    io.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const progress = io.stderr.isTTY === true;
  const report = await checkAgent(args.url, {
    ...args.options,
    ...(progress && {
      onProgress: ({ index, total, id }) => io.stderr.write(`\r\x1b[K[${index + 1}/${total}] ${id}`),
    }),
  });
  if (progress) io.stderr.write('\r\x1b[K');
  if (args.junit) writeFileSync(args.junit, toJUnit(report));
  if (args.json) {
    io.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
    io.stderr.write(`${summaryLine(report)}\n`);
  } else {
    io.stdout.write(formatReport(report, { color: io.stdout.isTTY === true && !io.env.NO_COLOR }));
  }
  return exitCode(report);
}
