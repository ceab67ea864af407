import { parseArgs } from 'node:util';
import type { Binding, CheckOptions } from './context.js';

export const USAGE = `Usage: a2a-check <agent origin or card URL> [options]

Checks a running A2A agent against the v1.0.1 specification. Read-only unless --send is given.

Options:
  --header "Name: value"   send this header with every call (repeatable)
  --auth "<scheme> <cred>" send "Authorization: <scheme> <cred>" with every call
  --binding <name>         check only jsonrpc, http+json or grpc
  --send "<text>"          allow checks that create tasks, sending this text (off by default)
  --hostile                add the bounded bad-input sample (oversize body, deep JSON, bad UTF-8, wrong Content-Type)
  --timeout <seconds>      how long one call may take (default 10)
  --json                   print the report as JSON instead of text
  --junit <file>           also write the report as JUnit XML to <file>
  -h, --help               this text

Exit codes: 0 no MUST check failed, 1 a MUST check failed, 2 the agent cannot be reached (or bad arguments).`;

export interface CliArgs {
  url: string;
  options: CheckOptions;
  json: boolean;
  junit?: string;
}

const BINDINGS: Binding[] = ['jsonrpc', 'http+json', 'grpc'];

/** The command line read into `checkAgent` options; throws an Error with a message for the user on bad input. */
export function parseCliArgs(argv: string[]): CliArgs | 'help' {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      header: { type: 'string', multiple: true },
      auth: { type: 'string' },
      binding: { type: 'string' },
      send: { type: 'string' },
      hostile: { type: 'boolean' },
      timeout: { type: 'string' },
      json: { type: 'boolean' },
      junit: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) return 'help';
  if (positionals.length !== 1) throw new Error('give one agent URL (its origin or its card URL)');
  const url = positionals[0] as string;
  if (!/^https?:\/\//i.test(url)) throw new Error(`not an http(s) URL: ${url}`);
  const headers: Record<string, string> = {};
  for (const header of values.header ?? []) {
    const colon = header.indexOf(':');
    if (colon <= 0) throw new Error(`--header wants "Name: value", got "${header}"`);
    headers[header.slice(0, colon).trim()] = header.slice(colon + 1).trim();
  }
  if (values.auth !== undefined) headers.Authorization = values.auth;
  const options: CheckOptions = { headers };
  if (values.binding !== undefined) {
    if (!BINDINGS.includes(values.binding as Binding))
      throw new Error(`--binding is one of ${BINDINGS.join(', ')}, got "${values.binding}"`);
    options.binding = values.binding as Binding;
  }
  if (values.send !== undefined) {
    if (values.send.trim() === '') throw new Error('--send wants the text of the message to send');
    options.send = values.send;
  }
  if (values.hostile) options.hostile = true;
  if (values.timeout !== undefined) {
    const seconds = Number(values.timeout);
    if (!Number.isFinite(seconds) || seconds <= 0 || seconds > 600)
      throw new Error(`--timeout is a number of seconds (0 < n ≤ 600), got "${values.timeout}"`);
    options.timeoutMs = Math.round(seconds * 1000);
  }
  return { url, options, json: values.json ?? false, ...(values.junit !== undefined && { junit: values.junit }) };
}
