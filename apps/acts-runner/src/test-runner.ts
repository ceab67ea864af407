import { setTimeout as sleep } from 'node:timers/promises';
import { type AssertionFailure, check, deepEqual, isRecord, parseUntil } from './assertion-engine.js';
import type { BindingClient, CallResult, StreamResult } from './bindings/binding.js';
import { fromRestError } from './bindings/http-json-client.js';
import { httpRequest, sseRequest } from './bindings/http-transport.js';
import { fromJsonRpcError } from './bindings/json-rpc-client.js';
import { matchesErrorType, type WireError } from './error-table.js';
import { type BindingName, type ErrorTypeName, type Level, type OperationName, stepKind } from './grammar.js';
import type { LoadedTest } from './loader.js';
import { collectPath, resolvePath } from './paths.js';
import { checkStream, eventView, type StreamExpectation } from './stream-assertions.js';
import { interpolate, type Scope, UnresolvedVariableError } from './variables.js';

export type Outcome = 'pass' | 'fail' | 'skip' | 'error';

export interface FailureDetail {
  message: string;
  step_id?: string;
  expected?: string;
  actual?: string;
  assertion_path?: string;
}

export interface StepResult {
  id: string;
  result: Outcome;
  duration_ms: number;
  failure?: FailureDetail;
}

export interface TestResult {
  id: string;
  name: string;
  level: Level;
  result: Outcome;
  duration_ms: number;
  skip_reason?: string;
  failure?: FailureDetail;
  steps?: StepResult[];
  /** Why it did not pass, for people: 'suite defect', 'precondition', 'transport', 'missing SUT behaviour', … */
  category?: string;
}

export interface RunContext {
  binding: BindingName;
  client: BindingClient;
  /** The public agent card (preconditions). */
  card: Record<string, unknown>;
  /** Base URLs raw steps resolve their `path` against, per HTTP binding. */
  rawBase: Partial<Record<BindingName, string>>;
  /** Sent as `Authorization: Bearer …` with every abstract operation when set (the SUT's auth mode). */
  authToken?: string;
  /** Runner-provided variables (SUT_BASE_URL, webhookUrl, …); they win over the document's defaults. */
  variables: Record<string, string>;
  /** Behaviours the SUT declares (its sut-behaviors file); a failing test that needs others is marked so. */
  behaviors?: Set<string>;
  /** Runner requirements this runner can meet. */
  capabilities: Set<string>;
  streamTimeoutMs: number;
}

const STREAMING: ReadonlySet<OperationName> = new Set(['send_streaming_message', 'subscribe_to_task']);

class StepFailure extends Error {
  constructor(readonly detail: FailureDetail) {
    super(detail.message);
  }
}

const fromAssertion = (f: AssertionFailure, prefix: string): FailureDetail => ({
  message: `${prefix}${f.path ? ` at ${f.path}` : ''}: ${f.message}`,
  ...(f.expected !== undefined && { expected: f.expected }),
  ...(f.actual !== undefined && { actual: f.actual }),
  assertion_path: f.path,
});

const assertAll = (failures: AssertionFailure[], prefix: string) => {
  const first = failures[0];
  if (first) throw new StepFailure(fromAssertion(first, prefix));
};

const describeError = (e: WireError) =>
  [
    e.jsonRpcCode !== undefined && `JSON-RPC ${e.jsonRpcCode}`,
    e.httpStatus !== undefined && `HTTP ${e.httpStatus}`,
    e.grpcStatus && `gRPC ${e.grpcStatus}`,
    e.reason && `reason ${e.reason}`,
    e.message && `"${e.message.slice(0, 200)}"`,
  ]
    .filter(Boolean)
    .join(', ');

/** Why a test cannot run here, or undefined. */
export function skipReason(test: LoadedTest, ctx: RunContext): { reason: string; category: string } | undefined {
  if (test.violations.length > 0) {
    const shown = test.violations
      .slice(0, 3)
      .map((v) => `${v.at}: ${v.message}`)
      .join('; ');
    return {
      reason: `suite defect: ${shown}${test.violations.length > 3 ? ` (+${test.violations.length - 3} more)` : ''}`,
      category: 'suite defect',
    };
  }
  const t = test.test;
  if (Array.isArray(t.transport) && !t.transport.includes(ctx.binding))
    return { reason: `transport: only for ${t.transport.join(', ')}`, category: 'transport' };
  const pre = isRecord(t.preconditions) ? t.preconditions : {};
  if (Array.isArray(pre.transport) && !pre.transport.includes(ctx.binding))
    return { reason: `precondition: transport ${pre.transport.join(', ')}`, category: 'precondition' };
  const caps = isRecord(ctx.card.capabilities) ? ctx.card.capabilities : {};
  for (const [name, wanted] of Object.entries(isRecord(pre.capabilities) ? pre.capabilities : {})) {
    if (name === AUTHENTICATION && !Object.hasOwn(caps, AUTHENTICATION)) {
      const actual = declaresAuthentication(ctx.card);
      if (!deepEqual(actual, wanted))
        return {
          reason: `precondition: capabilities.authentication needs ${JSON.stringify(wanted)}; the card ${actual ? 'declares' : 'does not declare'} securitySchemes with securityRequirements`,
          category: 'precondition',
        };
      continue;
    }
    // An undeclared boolean capability is false.
    const actual = caps[name] ?? (typeof wanted === 'boolean' ? false : undefined);
    if (!deepEqual(actual, wanted))
      return {
        reason: `precondition: capabilities.${name} is ${JSON.stringify(caps[name])}, the test needs ${JSON.stringify(wanted)}`,
        category: 'precondition',
      };
  }
  const skills = Array.isArray(ctx.card.skills) ? ctx.card.skills.map((s) => (isRecord(s) ? s.id : undefined)) : [];
  for (const skill of Array.isArray(pre.skills) ? pre.skills : []) {
    if (isRecord(skill) && !skills.includes(skill.id))
      return { reason: `precondition: skill ${String(skill.id)} not on the card`, category: 'precondition' };
  }
  const extensions = (
    isRecord(ctx.card.capabilities) && Array.isArray(ctx.card.capabilities.extensions)
      ? ctx.card.capabilities.extensions
      : []
  ).map((e) => (isRecord(e) ? e.uri : undefined));
  for (const uri of Array.isArray(pre.extensions) ? pre.extensions : []) {
    if (!extensions.includes(uri))
      return { reason: `precondition: extension ${String(uri)} not declared`, category: 'precondition' };
  }
  for (const requirement of Array.isArray(t.runner_requirements) ? t.runner_requirements : []) {
    if (!ctx.capabilities.has(String(requirement)))
      return { reason: `runner requirement ${String(requirement)} is not available in this run`, category: 'runner' };
  }
  return undefined;
}

/**
 * `capabilities.authentication` (SEC-AUTH-*): AgentCapabilities has no such field in v1.0 (nor in v0.3), so read
 * literally it could never be met. What the tests mean is "the agent requires credentials", which a v1.0 card says
 * with `securitySchemes` and `securityRequirements` (a SecurityRequirement names the schemes a request must satisfy;
 * schemes alone only describe what the agent could accept). `true` needs both, `false` neither. A card that does
 * carry a `capabilities.authentication` field is read as written.
 */
const AUTHENTICATION = 'authentication';
export function declaresAuthentication(card: Record<string, unknown>): boolean {
  const schemes = isRecord(card.securitySchemes) ? Object.keys(card.securitySchemes) : [];
  const requirements = Array.isArray(card.securityRequirements) ? card.securityRequirements : [];
  return (
    schemes.length > 0 &&
    requirements.some((r) => isRecord(r) && isRecord(r.schemes) && Object.keys(r.schemes).length > 0)
  );
}

/** The SUT behaviour a `client_response` step rides on (ACTS §10 has no operation of its own for it). */
export const CLIENT_PARSE_BEHAVIOUR = 'tck-client-parse';

/** Behaviours a test needs: its `requires_behaviors`, plus tck-client-parse for a client test. */
function neededBehaviours(test: LoadedTest): string[] {
  const t = test.test;
  const needed = Array.isArray(t.requires_behaviors) ? (t.requires_behaviors as string[]) : [];
  const client = (Array.isArray(t.steps) ? t.steps : []).some((s) => stepKind(s) === 'client');
  return client && !needed.includes(CLIENT_PARSE_BEHAVIOUR) ? [...needed, CLIENT_PARSE_BEHAVIOUR] : needed;
}

export async function runTest(test: LoadedTest, ctx: RunContext): Promise<TestResult> {
  const started = Date.now();
  const base = { id: test.id, name: test.name, level: test.level };
  const skip = skipReason(test, ctx);
  if (skip) return { ...base, result: 'skip', duration_ms: 0, skip_reason: skip.reason, category: skip.category };
  const scope: Scope = {
    captures: new Map(),
    runner: ctx.variables,
    document: test.variables,
    env: process.env,
  };
  const steps: StepResult[] = [];
  let failure: FailureDetail | undefined;
  let outcome: Outcome = 'pass';
  for (const step of test.test.steps as Record<string, unknown>[]) {
    const stepStarted = Date.now();
    const id = String(step.id);
    try {
      await runStep(step, test, ctx, scope);
      steps.push({ id, result: 'pass', duration_ms: Date.now() - stepStarted });
    } catch (error) {
      const isFailure = error instanceof StepFailure || error instanceof UnresolvedVariableError;
      failure =
        error instanceof StepFailure
          ? { ...error.detail, step_id: id }
          : { message: `${isFailure ? '' : 'runner error: '}${(error as Error).message}`, step_id: id };
      outcome = isFailure ? 'fail' : 'error';
      steps.push({ id, result: outcome, duration_ms: Date.now() - stepStarted, failure });
      break;
    }
  }
  if (outcome === 'pass' && Array.isArray(test.test.assertions)) {
    try {
      for (const a of test.test.assertions) checkNamed(a as Record<string, unknown>, scope);
    } catch (error) {
      outcome = error instanceof StepFailure || error instanceof UnresolvedVariableError ? 'fail' : 'error';
      failure = error instanceof StepFailure ? error.detail : { message: (error as Error).message };
    }
  }
  const result: TestResult = { ...base, result: outcome, duration_ms: Date.now() - started, steps };
  if (failure) result.failure = failure;
  if (outcome !== 'pass' && ctx.behaviors) {
    const missing = neededBehaviours(test).filter((b) => !ctx.behaviors?.has(b));
    if (missing.length > 0) result.category = `missing SUT behaviour: ${missing.join(', ')}`;
  }
  return result;
}

const headersFor = (test: LoadedTest, ctx: RunContext): Record<string, string> => ({
  'A2A-Version': test.specVersion || '1.0',
  ...(ctx.authToken ? { Authorization: `Bearer ${ctx.authToken}` } : {}),
});

async function runStep(step: Record<string, unknown>, test: LoadedTest, ctx: RunContext, scope: Scope) {
  const id = String(step.id);
  if (typeof step.delay_ms === 'number') await sleep(step.delay_ms);
  const kind = stepKind(step);
  if (kind === 'assertion') {
    checkCollection(step.assertion as Record<string, unknown>, scope, 'assertion');
    return;
  }
  if (kind === 'client') {
    const parsed = await runClient(step, test, ctx, scope);
    scope.captures.set(id, { response: parsed });
    for (const a of Array.isArray(step.assertions) ? step.assertions : [])
      checkNamed(a as Record<string, unknown>, scope);
    return;
  }
  let root: unknown;
  if (kind === 'raw') root = await runRaw(step, ctx, scope);
  else root = await runServer(step, test, ctx, scope);
  const captures: Record<string, unknown> = { response: root };
  for (const [name, path] of Object.entries(isRecord(step.capture) ? step.capture : {})) {
    const found = resolvePath(root, String(path));
    if (!found.found)
      throw new StepFailure({
        message: `capture ${name}: nothing at "${String(path)}" in the response`,
        assertion_path: String(path),
      });
    captures[name] = found.value;
  }
  scope.captures.set(id, captures);
  for (const a of Array.isArray(step.assertions) ? step.assertions : [])
    checkNamed(a as Record<string, unknown>, scope);
}

async function runServer(
  step: Record<string, unknown>,
  test: LoadedTest,
  ctx: RunContext,
  scope: Scope,
): Promise<unknown> {
  const operation = step.operation as OperationName;
  const headers = headersFor(test, ctx);
  const repeat = isRecord(step.repeat) ? step.repeat : undefined;
  const until = repeat ? parseUntil(String(repeat.until)) : undefined;
  const attempts = repeat ? (typeof repeat.max_attempts === 'number' ? repeat.max_attempts : 10) : 1;
  const delay = repeat && typeof repeat.delay_ms === 'number' ? repeat.delay_ms : 1000;
  for (let attempt = 1; ; attempt++) {
    const params = interpolate(step.params ?? {}, scope) as Record<string, unknown>;
    if (STREAMING.has(operation)) {
      const expectation = isRecord(step.expect_stream)
        ? (step.expect_stream as StreamExpectation & { timeout_ms?: number })
        : undefined;
      const result = await ctx.client.stream(operation, params, {
        headers,
        timeoutMs: expectation?.timeout_ms ?? ctx.streamTimeoutMs,
        ...(expectation?.max_count !== undefined && { maxEvents: expectation.max_count + 1 }),
      });
      return checkStreamStep(step, result, ctx.binding, scope);
    }
    const result = await ctx.client.call(operation, params, { headers });
    const root = checkCallStep(step, result, ctx.binding, scope);
    if (!until || until(root, (r, p) => resolvePath(r, p).value)) return root;
    if (attempt >= attempts)
      throw new StepFailure({
        message: `repeat: "${String(repeat?.until)}" still false after ${attempts} attempts`,
        actual: JSON.stringify(root).slice(0, 300),
      });
    const backoff = repeat?.backoff === 'linear' ? attempt : repeat?.backoff === 'exponential' ? 2 ** (attempt - 1) : 1;
    await sleep(delay * backoff);
  }
}

function checkExpectedError(
  step: Record<string, unknown>,
  error: WireError | undefined,
  binding: BindingName,
  scope: Scope,
) {
  const expected = interpolate(step.expect_error, scope) as Record<string, unknown>;
  if (!error)
    throw new StepFailure({
      message: `expected ${String(expected.error_type)}, the call succeeded`,
      expected: String(expected.error_type),
    });
  const match = matchesErrorType(error, expected.error_type as ErrorTypeName, binding);
  if (!match.ok)
    throw new StepFailure({
      message: `expected ${String(expected.error_type)} (${match.expected}), got ${describeError(error)}`,
      expected: match.expected,
      actual: match.actual,
    });
  if (expected.message !== undefined) assertAll(check(error.message, expected.message, 'message'), 'error');
  if (expected.details !== undefined) assertAll(check(error.details, expected.details, 'details'), 'error');
}

function checkCallStep(step: Record<string, unknown>, result: CallResult, binding: BindingName, scope: Scope): unknown {
  if (step.expect_error !== undefined) {
    checkExpectedError(step, result.ok ? undefined : result.error, binding, scope);
    return result.ok ? result.body : errorRoot(result.error);
  }
  if (!result.ok) throw new StepFailure({ message: `expected success, got an error: ${describeError(result.error)}` });
  const expect = isRecord(step.expect) ? (interpolate(step.expect, scope) as Record<string, unknown>) : {};
  if (expect.status !== undefined) assertAll(check(result.status, expect.status, 'status'), 'status');
  if (expect.body !== undefined) assertAll(check(result.body, expect.body, ''), 'body');
  return result.body;
}

const errorRoot = (error: WireError) => ({ error: { ...error } });

function checkStreamStep(
  step: Record<string, unknown>,
  result: StreamResult,
  binding: BindingName,
  scope: Scope,
): unknown {
  if (step.expect_error !== undefined) {
    checkExpectedError(step, result.error, binding, scope);
    return result.error ? errorRoot(result.error) : {};
  }
  if (result.error)
    throw new StepFailure({
      message: `the stream failed after ${result.events.length} events: ${describeError(result.error)}`,
    });
  const expectation = isRecord(step.expect_stream)
    ? (interpolate(step.expect_stream, scope) as StreamExpectation)
    : undefined;
  if (expectation) {
    if (result.cut && expectation.final_event)
      throw new StepFailure({ message: `the stream was still open after ${result.events.length} events (timeout)` });
    assertAll(checkStream(result.events, expectation), 'stream');
  }
  const last = result.events.at(-1);
  return last ? eventView(last) : {};
}

/**
 * A client test step (ACTS §10): the SUT's own client parses the canonical payload. No A2A operation asks a server
 * to do that, so it rides a `send_message` on the binding under test whose first part is the text
 * `tck-client-parse` and whose data part is `{operation, wire_payload}`; the SUT answers with a completed task whose
 * artifact's data part is what its client parsed (the operation's assertion root, §4.2, or `{error: {code,
 * message}}` when the client refused the payload or surfaced the agent's error). `expect_parsed` is evaluated on
 * that like a body.
 */
async function runClient(
  step: Record<string, unknown>,
  test: LoadedTest,
  ctx: RunContext,
  scope: Scope,
): Promise<unknown> {
  const request = interpolate(step.client_response, scope) as Record<string, unknown>;
  const params = {
    message: {
      role: 'ROLE_USER',
      parts: [
        { text: CLIENT_PARSE_BEHAVIOUR },
        { data: { operation: request.operation, wire_payload: request.wire_payload } },
      ],
    },
  };
  const result = await ctx.client.call('send_message', params, { headers: headersFor(test, ctx) });
  if (!result.ok)
    throw new StepFailure({
      message: `${CLIENT_PARSE_BEHAVIOUR}: the SUT refused the request: ${describeError(result.error)}`,
    });
  const parsed = clientParseAnswer(result.body);
  if ('failure' in parsed) throw new StepFailure({ message: `${CLIENT_PARSE_BEHAVIOUR}: ${parsed.failure}` });
  const failures = check(parsed.value, interpolate(step.expect_parsed, scope), '');
  // A refusal by the client explains every mismatch that follows from it: say so.
  const refusal = isRecord(parsed.value) && isRecord(parsed.value.error) ? parsed.value.error : undefined;
  assertAll(
    failures,
    refusal ? `parsed (the client answered an error: ${JSON.stringify(refusal).slice(0, 200)})` : 'parsed',
  );
  return parsed.value;
}

/** What the SUT's client parsed: the first data part of the returned task's artifacts. */
export function clientParseAnswer(body: unknown): { value: unknown } | { failure: string } {
  const task = isRecord(body) && isRecord(body.task) ? body.task : undefined;
  if (!task) return { failure: `expected a task, got ${JSON.stringify(body).slice(0, 200)}` };
  const status = isRecord(task.status) ? task.status : {};
  if (status.state !== 'TASK_STATE_COMPLETED') {
    const parts = isRecord(status.message) && Array.isArray(status.message.parts) ? status.message.parts : [];
    const why = parts.map((p) => (isRecord(p) && typeof p.text === 'string' ? p.text : '')).join(' ');
    return { failure: `the task ended ${String(status.state)}${why ? `: ${why}` : ''}` };
  }
  for (const artifact of Array.isArray(task.artifacts) ? task.artifacts : []) {
    for (const part of isRecord(artifact) && Array.isArray(artifact.parts) ? artifact.parts : []) {
      if (isRecord(part) && part.data !== undefined) return { value: part.data };
    }
  }
  return { failure: 'the completed task has no data part in its artifacts' };
}

async function runRaw(step: Record<string, unknown>, ctx: RunContext, scope: Scope): Promise<unknown> {
  const raw = interpolate(step.raw, scope) as Record<string, unknown>;
  const base = ctx.rawBase[ctx.binding];
  if (!base) throw new StepFailure({ message: `raw steps need an HTTP binding; ${ctx.binding} has none` });
  const url = new URL(String(raw.path).replace(/^\//, ''), base.endsWith('/') ? base : `${base}/`).toString();
  const headers = isRecord(raw.headers) ? (raw.headers as Record<string, string>) : {};
  const request = { method: String(raw.method), headers, body: raw.body_raw ?? raw.body };
  const accept = Object.entries(headers).find(([k]) => k.toLowerCase() === 'accept')?.[1] ?? '';
  let answer: { status: number; json: unknown; text: string };
  if (accept.includes('text/event-stream')) {
    const sse = await sseRequest(url, request, ctx.streamTimeoutMs);
    answer = sse.plain ?? { status: sse.status, json: sse.events.map((e) => e.data), text: '' };
  } else answer = await httpRequest(url, request);
  if (step.expect_error !== undefined) {
    const error =
      ctx.binding === 'jsonrpc'
        ? isRecord(answer.json) && isRecord(answer.json.error)
          ? fromJsonRpcError(answer.json.error, answer.status)
          : undefined
        : answer.status >= 400
          ? fromRestError({ ...answer, headers: {} })
          : undefined;
    checkExpectedError(step, error, ctx.binding, scope);
    return answer.json;
  }
  const expect = isRecord(step.expect) ? (interpolate(step.expect, scope) as Record<string, unknown>) : {};
  assertAll(check(answer.status, expect.status ?? 200, 'status'), 'status');
  if (expect.body !== undefined) assertAll(check(answer.json, expect.body, ''), 'body');
  return answer.json;
}

function checkCollection(assertion: Record<string, unknown>, scope: Scope, label: string, root?: unknown) {
  const source = root ?? interpolate(assertion.source, scope);
  for (const mode of ['any', 'all', 'none'] as const) {
    const spec = assertion[mode];
    if (!isRecord(spec)) continue;
    const elements = collectPath(source, String(spec.path));
    const matcher = interpolate(spec.match, scope);
    const matching = elements.filter((e) => check(e, matcher).length === 0).length;
    const ok = mode === 'any' ? matching > 0 : mode === 'all' ? matching === elements.length : matching === 0;
    if (!ok)
      throw new StepFailure({
        message: `${label}: ${mode} of ${elements.length} element(s) at "${String(spec.path)}" should match ${JSON.stringify(matcher)}; ${matching} did`,
        assertion_path: String(spec.path),
      });
  }
}

function checkNamed(assertion: Record<string, unknown>, scope: Scope) {
  const label = `assertion${typeof assertion.id === 'string' ? ` ${assertion.id}` : ''}`;
  let root = interpolate(assertion.source, scope);
  if (typeof assertion.path === 'string') {
    const found = resolvePath(root, assertion.path);
    root = found.found ? found.value : undefined;
  }
  if (assertion.match !== undefined)
    assertAll(check(root, interpolate(assertion.match, scope), String(assertion.path ?? '')), label);
  checkCollection(assertion, scope, label, root);
}
