export { AREAS, type Area, type Check, type Level, type Verdict } from './check.js';
export { checkAgent } from './check-agent.js';
export { ALL_CHECKS } from './checks/all-checks.js';
export type { Binding, CheckOptions } from './context.js';
export { toJUnit } from './output/junit.js';
export { formatReport } from './output/terminal.js';
export { type CheckResult, exitCode, type Report, summaryLine } from './report.js';
export { type CliIo, type CliStream, runCli } from './run-cli.js';
