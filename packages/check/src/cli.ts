#!/usr/bin/env node
import { writeFileSync } from 'node:fs';
import { checkAgent } from './check-agent.js';
import { parseCliArgs, USAGE } from './cli-args.js';
import { toJUnit } from './output/junit.js';
import { formatReport } from './output/terminal.js';
import { exitCode, summaryLine } from './report.js';

// The `a2a-check` command: parse, run, print (text or JSON), write JUnit if asked, exit 0/1/2.
async function main(argv: string[]): Promise<number> {
  let args: ReturnType<typeof parseCliArgs>;
  try {
    args = parseCliArgs(argv);
  } catch (error) {
    process.stderr.write(`a2a-check: ${error instanceof Error ? error.message : String(error)}\n\n${USAGE}\n`);
    return 2;
  }
  if (args === 'help') {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const progress = process.stderr.isTTY === true;
  const report = await checkAgent(args.url, {
    ...args.options,
    ...(progress && {
      onProgress: ({ index, total, id }) => process.stderr.write(`\r\x1b[K[${index + 1}/${total}] ${id}`),
    }),
  });
  if (progress) process.stderr.write('\r\x1b[K');
  if (args.junit) writeFileSync(args.junit, toJUnit(report));
  if (args.json) process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  else process.stdout.write(formatReport(report, { color: process.stdout.isTTY === true && !process.env.NO_COLOR }));
  // With --json, stdout is the JSON alone; the summary line goes to stderr.
  if (args.json) process.stderr.write(`${summaryLine(report)}\n`);
  return exitCode(report);
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`a2a-check: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = 2;
  },
);
