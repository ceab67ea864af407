import { classifyMap, isRecord, OPERATORS, parseUntil } from './assertion-engine.js';
import { parsePath } from './paths.js';

/** Grammar checks of ACTS documents (spec Appendix A, CDDL). A test with a violation is a suite defect, not run. */

export const LEVELS = ['must', 'should', 'may'] as const;
export type Level = (typeof LEVELS)[number];
export const BINDINGS = ['jsonrpc', 'grpc', 'rest'] as const;
export type BindingName = (typeof BINDINGS)[number];
export const OPERATIONS = [
  'send_message',
  'send_streaming_message',
  'get_task',
  'list_tasks',
  'cancel_task',
  'subscribe_to_task',
  'get_agent_card',
  'get_extended_agent_card',
  'create_push_config',
  'get_push_config',
  'list_push_configs',
  'delete_push_config',
] as const;
export type OperationName = (typeof OPERATIONS)[number];
export const ERROR_TYPES = [
  'TaskNotFoundError',
  'TaskNotCancelableError',
  'UnsupportedOperationError',
  'ContentTypeNotSupportedError',
  'InvalidParamsError',
  'VersionNotSupportedError',
  'PushNotificationNotSupportedError',
  'StreamingNotSupportedError',
  'ExtensionSupportRequiredError',
  'ExtendedCardNotSupportedError',
  'JSONParseError',
  'MethodNotFoundError',
  'InternalError',
] as const;
export type ErrorTypeName = (typeof ERROR_TYPES)[number];
export const RUNNER_REQUIREMENTS = [
  'webhook_endpoint',
  'concurrent_streams',
  'stream_disconnect',
  'auth_credentials',
  'header_inspection',
] as const;

/** One finding: where (a dot/bracket path inside the test) and what. */
export interface Violation {
  at: string;
  message: string;
}

type Check = (value: unknown, at: string, out: Violation[]) => void;

const text: Check = (v, at, out) => {
  if (typeof v !== 'string') out.push({ at, message: `expected text, got ${describe(v)}` });
};
const int: Check = (v, at, out) => {
  if (!Number.isInteger(v)) out.push({ at, message: `expected an integer, got ${describe(v)}` });
};
const anything: Check = () => {};
const oneOf =
  (values: readonly string[]): Check =>
  (v, at, out) => {
    if (typeof v !== 'string' || !values.includes(v))
      out.push({ at, message: `${describe(v)} is not one of ${values.join(' / ')}` });
  };
const list =
  (item: Check, { nonEmpty = true } = {}): Check =>
  (v, at, out) => {
    if (!Array.isArray(v)) return void out.push({ at, message: `expected a list, got ${describe(v)}` });
    if (nonEmpty && v.length === 0) out.push({ at, message: 'expected one or more entries, got an empty list' });
    for (const [i, x] of v.entries()) item(x, `${at}[${i}]`, out);
  };
const mapOf =
  (value: Check): Check =>
  (v, at, out) => {
    if (!isRecord(v)) return void out.push({ at, message: `expected a map, got ${describe(v)}` });
    for (const [k, x] of Object.entries(v)) value(x, `${at}.${k}`, out);
  };
/** A closed map: only the listed keys (required ones marked with `!`), each with its check. */
const struct =
  (fields: Record<string, Check>, extra?: (v: Record<string, unknown>, at: string, out: Violation[]) => void): Check =>
  (v, at, out) => {
    if (!isRecord(v)) return void out.push({ at, message: `expected a map, got ${describe(v)}` });
    const known = new Map(
      Object.entries(fields).map(([k, c]) => [k.replace(/!$/, ''), { check: c, required: k.endsWith('!') }]),
    );
    for (const [k, spec] of known) {
      if (spec.required && !Object.hasOwn(v, k)) out.push({ at, message: `missing required field "${k}"` });
    }
    for (const [k, x] of Object.entries(v)) {
      const spec = known.get(k);
      if (!spec) out.push({ at: `${at}.${k}`, message: `field "${k}" is not part of this structure` });
      else spec.check(x, `${at}.${k}`, out);
    }
    extra?.(v, at, out);
  };

function describe(v: unknown): string {
  if (v === undefined) return 'nothing';
  const s = JSON.stringify(v);
  return s.length > 60 ? `${s.slice(0, 57)}...` : s;
}

/** An assertion (§5.1), with nested maps that mirror the response and lists that assert positions. */
export const assertion: Check = (v, at, out) => {
  if (Array.isArray(v)) {
    for (const [i, x] of v.entries()) assertion(x, `${at}[${i}]`, out);
    return;
  }
  if (!isRecord(v)) return;
  const kind = classifyMap(v);
  if (kind === 'mixed') {
    const ops = Object.keys(v).filter((k) => OPERATORS[k] && !isRecord(v[k]));
    const others = Object.keys(v).filter((k) => !ops.includes(k));
    return void out.push({
      at,
      message: `mixes assertion operators (${ops.join(', ')}) with fields or unknown operators (${others.join(', ')})`,
    });
  }
  for (const [k, x] of Object.entries(v)) {
    if (kind === 'fields') assertion(x, `${at}.${k}`, out);
    else if (k === 'all_of' || k === 'any_of' || k === 'one_of' || k === 'not')
      for (const [i, sub] of (Array.isArray(x) ? x : [x]).entries()) assertion(sub, `${at}.${k}[${i}]`, out);
    else if (k === 'matches') {
      try {
        new RegExp(x as string, 'u');
      } catch {
        out.push({ at: `${at}.matches`, message: `invalid regular expression ${describe(x)}` });
      }
    }
  }
};
const assertionMap: Check = (v, at, out) => {
  if (!isRecord(v)) return void out.push({ at, message: `expected a map of assertions, got ${describe(v)}` });
  assertion(v, at, out);
};

const path: Check = (v, at, out) => {
  if (typeof v !== 'string') return text(v, at, out);
  try {
    parsePath(v);
  } catch (e) {
    out.push({ at, message: (e as Error).message });
  }
};
const until: Check = (v, at, out) => {
  if (typeof v !== 'string') return text(v, at, out);
  try {
    parseUntil(v);
  } catch (e) {
    out.push({ at, message: (e as Error).message });
  }
};

const collectionMatch = struct({ 'path!': path, 'match!': assertionMap });
const namedAssertion = struct({
  id: text,
  description: text,
  'source!': text,
  path,
  match: assertion,
  any: collectionMatch,
  all: collectionMatch,
  none: collectionMatch,
});
const inlineAssertion = struct({ 'source!': text, any: collectionMatch, all: collectionMatch, none: collectionMatch });
const expectBlock = struct({ status: assertion, body: assertionMap });
const expectError = struct({ 'error_type!': oneOf(ERROR_TYPES), message: assertion, details: assertionMap });
const EVENT_KEYS = ['status_update', 'artifact_update', 'task', 'message'];
const eventAssertion: Check = (v, at, out) => {
  if (!isRecord(v)) return void out.push({ at, message: `expected a map, got ${describe(v)}` });
  const generic: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v)) {
    if (k === 'description') text(x, `${at}.${k}`, out);
    else if (k === 'match') oneOf(['exact_position', 'any_position'])(x, `${at}.${k}`, out);
    else if (k === 'index') int(x, `${at}.${k}`, out);
    else if (EVENT_KEYS.includes(k)) assertionMap(x, `${at}.${k}`, out);
    else generic[k] = x;
  }
  if (Object.keys(generic).length > 0) assertion(generic, at, out);
};
const expectStream = struct({
  min_count: int,
  max_count: int,
  timeout_ms: int,
  ordering: oneOf(['monotonic_state']),
  events: list(eventAssertion),
  final_event: eventAssertion,
  each_event: eventAssertion,
});
const repeatConfig = struct({
  'until!': until,
  max_attempts: int,
  delay_ms: int,
  backoff: oneOf(['none', 'linear', 'exponential']),
});
const common = { 'id!': text, description: text };
const exclusiveExpect = (v: Record<string, unknown>, at: string, out: Violation[]) => {
  if (v.expect !== undefined && v.expect_error !== undefined)
    out.push({ at, message: '"expect" and "expect_error" are mutually exclusive' });
};
const serverStep = struct(
  {
    ...common,
    'operation!': oneOf(OPERATIONS),
    'params!': mapOf(anything),
    expect: expectBlock,
    expect_error: expectError,
    expect_stream: expectStream,
    capture: mapOf(path),
    assertions: list(namedAssertion),
    repeat: repeatConfig,
    delay_ms: int,
  },
  exclusiveExpect,
);
const rawStep = struct(
  {
    ...common,
    'raw!': struct({
      'method!': oneOf(['GET', 'POST', 'PUT', 'DELETE']),
      'path!': text,
      headers: mapOf(text),
      body: anything,
      body_raw: text,
    }),
    expect: expectBlock,
    expect_error: expectError,
    capture: mapOf(path),
    assertions: list(namedAssertion),
  },
  exclusiveExpect,
);
const clientStep = struct({
  ...common,
  'client_response!': struct({ 'operation!': oneOf(OPERATIONS), 'wire_payload!': anything }),
  'expect_parsed!': assertionMap,
  assertions: list(namedAssertion),
});
const assertionStep = struct({ ...common, 'assertion!': inlineAssertion });

export type StepKind = 'server' | 'raw' | 'client' | 'assertion';
export function stepKind(step: unknown): StepKind | undefined {
  if (!isRecord(step)) return undefined;
  if ('operation' in step) return 'server';
  if ('raw' in step) return 'raw';
  if ('client_response' in step) return 'client';
  if ('assertion' in step) return 'assertion';
  return undefined;
}

const step: Check = (v, at, out) => {
  const kind = stepKind(v);
  if (!kind) return void out.push({ at, message: 'a step needs one of operation, raw, client_response or assertion' });
  ({ server: serverStep, raw: rawStep, client: clientStep, assertion: assertionStep })[kind](v, at, out);
};

const preconditions = struct({
  capabilities: mapOf(anything),
  skills: list(struct({ 'id!': text })),
  transport: list(oneOf(BINDINGS)),
  extensions: list(text),
  description: text,
});

const testCheck = struct(
  {
    'id!': text,
    'name!': text,
    description: text,
    spec_ref: text,
    'level!': oneOf(LEVELS),
    tags: list(text),
    transport: list(oneOf(BINDINGS)),
    preconditions,
    // An empty list (`requires_behaviors: []`) says "no behaviour needed" as plainly as leaving it out.
    requires_behaviors: list(text, { nonEmpty: false }),
    origin: text,
    runner_requirements: list(oneOf(RUNNER_REQUIREMENTS)),
    'steps!': list(step),
    assertions: list(namedAssertion),
  },
  (v, at, out) => {
    const steps = Array.isArray(v.steps) ? v.steps : [];
    const ids = steps.map((s) => (isRecord(s) ? s.id : undefined));
    ids.forEach((id, i) => {
      if (typeof id === 'string' && ids.indexOf(id) !== i)
        out.push({ at: `${at}.steps[${i}]`, message: `duplicate step id "${id}"` });
    });
    if (steps.length > 0 && steps.every((s) => stepKind(s) === 'raw') && v.transport === undefined)
      out.push({ at, message: 'a test made only of raw steps must name its transport' });
  },
);

/** Violations of one test (paths relative to the test). An empty list means the test may run. */
export function validateTest(test: unknown): Violation[] {
  const out: Violation[] = [];
  testCheck(test, '', out);
  return out.map((v) => ({ ...v, at: v.at.replace(/^\./, '') }));
}

const metadata = struct({ title: text, description: text, authors: list(text), license: text });
const documentCheck = struct(
  {
    'acts_version!': text,
    'spec_version!': text,
    spec_ref: text,
    metadata,
    variables: mapOf(text),
    include: list(text),
    suites: list(anything),
  },
  (v, at, out) => {
    if (v.include === undefined && v.suites === undefined)
      out.push({ at, message: 'a document needs "suites" or "include"' });
    if (typeof v.acts_version === 'string' && v.acts_version.split('.')[0] !== '1')
      out.push({
        at: 'acts_version',
        message: `unsupported ACTS major version ${v.acts_version} (this runner reads 1.x)`,
      });
  },
);
const suiteHeader = struct({
  'id!': text,
  'name!': text,
  description: text,
  tags: list(text),
  'tests!': list(anything),
});

/** Violations of a document's own fields (not its tests). */
export function validateDocument(doc: unknown): Violation[] {
  const out: Violation[] = [];
  documentCheck(doc, '', out);
  return out.map((v) => ({ ...v, at: v.at.replace(/^\./, '') }));
}

/** Violations of a suite's own fields (not its tests). */
export function validateSuite(suite: unknown): Violation[] {
  const out: Violation[] = [];
  suiteHeader(suite, '', out);
  return out.map((v) => ({ ...v, at: v.at.replace(/^\./, '') }));
}
