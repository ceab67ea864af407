import { isA2AError } from '@a2a/core';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { A2AClient, type A2AClientOptions, type ProtocolBinding } from '../src/index.js';
import {
  cardFor,
  clientFor,
  invoke,
  type Operation,
  STREAMS,
  sseEvent,
  UNARY,
  unaryBody,
  validMessage,
  validResult,
  validTask,
} from './hostile-fixtures.js';
import { type Answer, endless, type HostileServer, hostileServer } from './hostile-server.js';

// Generated hostile agents (fast-check, fixed seed) against every operation over both bindings, and against card
// resolution: bodies and SSE events that are huge or never end, redirects within and across origins, results and
// events of the wrong shape, silence. Whatever the agent does, the call settles with its result or an A2AError, the
// client hangs up on what it will not read, nothing is sent to another origin, and no rejection goes unhandled.
// A2A_ADVERSARIAL_RUNS (cases per category) and A2A_ADVERSARIAL_SEED (to replay a failure) override the defaults.

const numRuns = Number(process.env.A2A_ADVERSARIAL_RUNS ?? 25);
const seed = Number(process.env.A2A_ADVERSARIAL_SEED ?? 0x2a2a);

/** Small limits, so a case costs milliseconds; timeouts generous except where silence is the case. */
const LIMITS: A2AClientOptions = { maxBodyBytes: 32 * 1024, maxEventBytes: 8 * 1024, timeoutMs: 10_000 };
const SILENCE: A2AClientOptions = { ...LIMITS, timeoutMs: 30, idleTimeoutMs: 30 };

let agent: HostileServer;
let elsewhere: HostileServer; // another origin: it must never hear from the client
const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown) => void unhandled.push(reason);
beforeAll(async () => {
  agent = await hostileServer();
  elsewhere = await hostileServer((_req, res) => res.writeHead(200).end('{}'));
  process.on('unhandledRejection', onUnhandled);
});
afterAll(async () => {
  process.off('unhandledRejection', onUnhandled);
  await Promise.all([agent.close(), elsewhere.close()]);
});

type Outcome = { resolved: unknown } | { a2a: string; message: string } | { other: unknown } | { hang: true };

/** The call's outcome; a call still pending after 5 s is a hang (every limit in these tests is far below). */
async function outcome(call: () => Promise<unknown>): Promise<Outcome> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const hang = new Promise<Outcome>((resolve) => {
    timer = setTimeout(() => resolve({ hang: true }), 5000);
  });
  const settled = call().then(
    (resolved): Outcome => ({ resolved }),
    (e: unknown): Outcome => (isA2AError(e) ? { a2a: e.type, message: e.message } : { other: e }),
  );
  try {
    return await Promise.race([settled, hang]);
  } finally {
    clearTimeout(timer);
  }
}

/** Runs a property; a failure names the seed and the case to replay it. */
async function check<T>(arbitrary: fc.Arbitrary<T>, property: (value: T) => Promise<void>) {
  const result = await fc.check(fc.asyncProperty(arbitrary, property), { seed, numRuns, endOnFailure: true });
  if (result.failed) {
    const error = result.errorInstance instanceof Error ? result.errorInstance.message : String(result.errorInstance);
    throw new Error(
      `${error}\n(seed ${seed}; set A2A_ADVERSARIAL_SEED to replay) ${JSON.stringify(result.counterexample?.[0])}`,
    );
  }
  expect(unhandled).toEqual([]);
  expect(elsewhere.requests).toEqual([]);
}

const bindings = fc.constantFrom<ProtocolBinding>('JSONRPC', 'HTTP+JSON');
const operations = fc.constantFrom<Operation>(...UNARY, ...STREAMS);
const isStream = (operation: Operation) => (STREAMS as readonly string[]).includes(operation);
const json = { 'content-type': 'application/json' };
const sse = { 'content-type': 'text/event-stream' };

/** Answers `valid` for the operation: its result as JSON, or, for a stream, one final event. */
const answerValid =
  (binding: ProtocolBinding, operation: Operation): Answer =>
  (_req, res) => {
    const result = validResult(operation, agent.url);
    if (isStream(operation)) res.writeHead(200, sse).end(sseEvent(binding, result));
    else res.writeHead(200, json).end(unaryBody(binding, result));
  };

// Wrong shapes: one required field of a valid result (or event) deleted or given a value of the wrong type.

const DELETE = Symbol('delete');
type Kind = 'root' | 'text' | 'string' | 'object' | 'element' | 'part' | 'list' | 'optionalList' | 'optionalObject';
const WRONG: Record<Kind, unknown[]> = {
  root: [null, 5, 'x', true, [], {}],
  text: [DELETE, null, 5, true, '', [], {}],
  string: [DELETE, null, 5, true, [], {}], // a card's: any string will do
  object: [DELETE, null, 5, 'x', true, [], {}],
  element: [null, 5, 'x', true, [], {}],
  part: [null, 5, 'x', true, []],
  list: [DELETE, null, 5, 'x', {}, [5], [null]],
  optionalList: [5, 'x', {}, [5], [null]],
  optionalObject: [5, 'x', true, [], {}],
};
type Path = readonly (string | number)[];
type Field = readonly [Path, Kind];
const under = (prefix: Path, fields: readonly Field[]): Field[] => fields.map(([p, k]) => [[...prefix, ...p], k]);

const MESSAGE: Field[] = [
  [['messageId'], 'text'],
  [['role'], 'text'],
  [['parts'], 'list'],
  [['parts', 0], 'part'],
];
const TASK: Field[] = [
  [['id'], 'text'],
  [['contextId'], 'text'],
  [['status'], 'object'],
  [['status', 'state'], 'text'],
  [['status', 'message'], 'optionalObject'],
  ...under(['status', 'message'], MESSAGE),
  [['artifacts'], 'optionalList'],
  [['artifacts', 0], 'element'],
  [['artifacts', 0, 'artifactId'], 'text'],
  [['artifacts', 0, 'parts'], 'list'],
  [['history'], 'optionalList'],
  ...under(['history', 0], MESSAGE),
];
const PUSH: Field[] = [
  [['id'], 'text'],
  [['taskId'], 'text'],
  [['url'], 'text'],
];
const ARTIFACT_UPDATE = { taskId: 't1', contextId: 'c1', artifact: { artifactId: 'a1', parts: [{ text: 'x' }] } };
const STATUS_UPDATE = {
  taskId: 't1',
  contextId: 'c1',
  status: { state: 'TASK_STATE_WORKING', message: validMessage() },
};

/** Each stream event kind, valid, with the fields whose wrong values make it invalid. */
const EVENTS = {
  task: { valid: { task: validTask() }, fields: [[['task'], 'object'], ...under(['task'], TASK)] },
  message: { valid: { message: validMessage() }, fields: [[['message'], 'object'], ...under(['message'], MESSAGE)] },
  statusUpdate: {
    valid: { statusUpdate: STATUS_UPDATE },
    fields: under(
      ['statusUpdate'],
      [
        [[], 'object'],
        [['taskId'], 'text'],
        [['contextId'], 'text'],
        [['status'], 'object'],
        [['status', 'state'], 'text'],
      ],
    ),
  },
  artifactUpdate: {
    valid: { artifactUpdate: ARTIFACT_UPDATE },
    fields: under(
      ['artifactUpdate'],
      [
        [[], 'object'],
        [['taskId'], 'text'],
        [['contextId'], 'text'],
        [['artifact'], 'object'],
        [['artifact', 'artifactId'], 'text'],
        [['artifact', 'parts'], 'list'],
        [['artifact', 'parts', 0], 'part'],
      ],
    ),
  },
} satisfies Record<string, { valid: unknown; fields: Field[] }>;
type EventKind = keyof typeof EVENTS;

const CARD: Field[] = [
  [['name'], 'string'],
  [['supportedInterfaces'], 'list'],
  [['supportedInterfaces', 0], 'element'],
  [['supportedInterfaces', 0, 'url'], 'string'],
  [['supportedInterfaces', 0, 'protocolBinding'], 'string'],
];

/** The fields of each unary result that must be right (DeleteTaskPushNotificationConfig's result is not read). */
const RESULT_FIELDS: Partial<Record<Operation, Field[]>> = {
  SendMessage: EVENTS.task.fields, // and EVENTS.message's, on a message reply
  GetTask: TASK,
  CancelTask: TASK,
  ListTasks: [[['tasks'], 'list'], [['tasks', 0], 'element'], ...under(['tasks', 0], TASK)],
  CreateTaskPushNotificationConfig: PUSH,
  GetTaskPushNotificationConfig: PUSH,
  ListTaskPushNotificationConfigs: [[['configs'], 'list'], [['configs', 0], 'element'], ...under(['configs', 0], PUSH)],
  GetExtendedAgentCard: CARD,
};

/** `value` with the field at `path` set to `wrong` (or deleted); the root replaced when `path` is empty. */
function mutate(value: unknown, path: Path, wrong: unknown): unknown {
  if (!path.length) return wrong;
  const copy = structuredClone(value) as Record<string | number, unknown>;
  let parent = copy;
  for (const key of path.slice(0, -1)) parent = parent[key] as Record<string | number, unknown>;
  const last = path[path.length - 1] as string | number;
  if (wrong === DELETE) delete parent[last];
  else parent[last] = wrong;
  return copy;
}

/** A wrong variant of `valid`: the root replaced, or one of `fields` made wrong; and where it was made wrong. */
const wrongShape = (valid: unknown, fields: readonly Field[]) =>
  fc.constantFrom<Field>([[], 'root'], ...fields).chain(([path, kind]) =>
    fc.constantFrom(...WRONG[kind]).map((wrong) => ({
      where: `${path.join('.') || '(root)'} = ${wrong === DELETE ? '(deleted)' : JSON.stringify(wrong)}`,
      value: mutate(valid, path, wrong),
    })),
  );

const expectInvalid = (result: Outcome) =>
  expect(result).toEqual({ a2a: 'InvalidAgentResponse', message: expect.any(String) });

describe('adversarial: the client against a generated hostile agent', () => {
  it('wrong shapes for every operation’s result are InvalidAgentResponse', async () => {
    const cases = fc
      .record({ binding: bindings, operation: fc.constantFrom(...(Object.keys(RESULT_FIELDS) as Operation[])) })
      .chain(({ binding, operation }) =>
        fc
          .constantFrom(
            { valid: validResult(operation, agent.url), fields: RESULT_FIELDS[operation] ?? [] },
            ...(operation === 'SendMessage' ? [EVENTS.message] : []),
          )
          .chain(({ valid, fields }) => wrongShape(valid, fields))
          .map((shape) => ({ binding, operation, ...shape })),
      );
    await check(cases, async ({ binding, operation, value }) => {
      agent.answer = (_req, res) => res.writeHead(200, json).end(unaryBody(binding, value));
      expectInvalid(await outcome(() => invoke(clientFor(agent.url, binding, LIMITS), operation)));
    });
  });

  it('wrong shapes for every stream event kind are InvalidAgentResponse, also after good events', async () => {
    const cases = fc
      .record({
        binding: bindings,
        operation: fc.constantFrom(...STREAMS),
        kind: fc.constantFrom(...(Object.keys(EVENTS) as EventKind[])),
        before: fc.nat(2),
      })
      .chain((c) => wrongShape(EVENTS[c.kind].valid, EVENTS[c.kind].fields).map((s) => ({ ...c, ...s })));
    await check(cases, async ({ binding, operation, before, value }) => {
      agent.answer = (_req, res) => {
        res.writeHead(200, sse);
        for (let i = 0; i < before; i++) res.write(sseEvent(binding, EVENTS.statusUpdate.valid, i + 1));
        res.write(sseEvent(binding, value, before + 1)); // and the stream stays open
      };
      const hungUp = agent.hungUp;
      expectInvalid(await outcome(() => invoke(clientFor(agent.url, binding, LIMITS), operation)));
      await expect.poll(() => agent.hungUp, { interval: 5 }).toBeGreaterThan(hungUp); // the client let the connection go
    });
  });

  it('any JSON or text as the answer settles as a result of the right shape or an A2AError', async () => {
    const body = fc.oneof(
      fc.jsonValue().map((v) => ({ wrap: true, v })),
      fc.string().map((v) => ({ wrap: false, v })),
    );
    const cases = fc.record({ binding: bindings, operation: operations, status: fc.constantFrom(200, 400, 500), body });
    await check(cases, async ({ binding, operation, status, body }) => {
      const text = body.wrap ? unaryBody(binding, body.v) : String(body.v);
      agent.answer = (_req, res) =>
        isStream(operation) && status === 200
          ? res.writeHead(200, sse).end(body.wrap ? `data: ${text}\n\n` : text)
          : res.writeHead(status, json).end(text);
      const result = await outcome(() => invoke(clientFor(agent.url, binding, LIMITS), operation));
      expect(result).not.toHaveProperty('other');
      expect(result).not.toHaveProperty('hang');
      // What resolves is an object (a stream's: objects), never the agent's null, number or text passed through.
      if ('resolved' in result && operation !== 'DeleteTaskPushNotificationConfig') {
        const values = isStream(operation) ? (result.resolved as unknown[]) : [result.resolved];
        for (const value of values) expect(value).toBeTypeOf('object');
        expect(values).not.toContain(null);
      }
    });
  });

  it('huge and endless bodies and SSE events are InvalidAgentResponse, and the client hangs up', async () => {
    const shapes = fc.constantFrom(
      'endless JSON',
      'huge JSON',
      'endless SSE line',
      'endless SSE data lines',
      'huge SSE event',
    );
    const cases = fc.record({
      binding: bindings,
      operation: operations,
      shape: shapes,
      status: fc.constantFrom(200, 503),
    });
    await check(cases, async ({ binding, operation, shape, status }) => {
      const isSse = shape.includes('SSE');
      agent.answer = (_req, res) => {
        res.writeHead(isSse ? 200 : status, isSse ? sse : json);
        if (shape === 'endless JSON') endless(res, 'j'.repeat(4096), '{"jsonrpc":"2.0","id":1,"result":"');
        if (shape === 'huge JSON') res.end(JSON.stringify({ error: { message: 'h'.repeat(64 * 1024) } }));
        if (shape === 'endless SSE line') endless(res, 's'.repeat(4096), 'data: ');
        if (shape === 'endless SSE data lines') endless(res, `data: ${'d'.repeat(100)}\n`);
        if (shape === 'huge SSE event') res.end(`data: "${'e'.repeat(16 * 1024)}"\n\n`);
      };
      const hungUp = agent.hungUp;
      const result = await outcome(() => invoke(clientFor(agent.url, binding, LIMITS), operation));
      if (isSse && !isStream(operation)) {
        // An event stream where JSON was asked for: read as a body (bounded), never as JSON.
        expect(result).toEqual({ a2a: expect.any(String), message: expect.any(String) });
      } else if (!isSse && isStream(operation) && status === 200 && binding === 'HTTP+JSON') {
        expectInvalid(result); // JSON where a stream was asked for: not read at all
      } else {
        expect(result).toEqual({ a2a: 'InvalidAgentResponse', message: expect.stringMatching(/larger than/) });
      }
      if (shape.startsWith('endless')) await expect.poll(() => agent.hungUp, { interval: 5 }).toBeGreaterThan(hungUp);
    });
  });

  it('redirects: followed within the origin only (307/308, or any for GET), never to another origin', async () => {
    const cases = fc.record({
      binding: bindings,
      operation: operations,
      status: fc.constantFrom(301, 302, 303, 307, 308),
      target: fc.constantFrom('same origin', 'other port', 'other scheme', 'other host'),
      policy: fc.constantFrom<'same-origin' | 'none' | undefined>(undefined, 'same-origin', 'none'),
    });
    await check(cases, async ({ binding, operation, status, target, policy }) => {
      const method = { current: '' };
      agent.answer = (req, res, body) => {
        if (req.url?.startsWith('/moved/')) {
          if (body !== method.current) res.writeHead(400).end('the body did not follow');
          else answerValid(binding, operation)(req, res, body);
          return;
        }
        method.current = body;
        const { port } = new URL(elsewhere.url);
        const location = {
          'same origin': `/moved${req.url}`,
          'other port': `${elsewhere.url}${req.url}`,
          'other scheme': `https://127.0.0.1:${port}${req.url}`,
          'other host': `http://localhost:${port}${req.url}`,
        }[target];
        res.writeHead(status, { location }).end();
      };
      const options = { ...LIMITS, headers: { 'x-api-key': 'secret' }, ...(policy ? { redirects: policy } : {}) };
      const result = await outcome(() => invoke(clientFor(agent.url, binding, options), operation));
      const get = binding === 'HTTP+JSON' && /^(Get|List)/.test(operation);
      if (target === 'same origin' && policy !== 'none' && (status >= 307 || get)) {
        expect(result).toHaveProperty('resolved');
      } else {
        expectInvalid(result);
      }
    });
  });

  it('silence (no answer, or a body that stops) is Unavailable after the timeout', async () => {
    const modes = fc.constantFrom('no answer', 'headers only', 'half a body', 'half an event', 'events, then silence');
    const cases = fc.record({ binding: bindings, operation: operations, mode: modes });
    await check(cases, async ({ binding, operation, mode }) => {
      agent.answer = (_req, res) => {
        if (mode === 'no answer') return;
        const stream = isStream(operation);
        res.writeHead(200, stream ? sse : json);
        if (mode === 'half a body') res.write(unaryBody(binding, validResult(operation, agent.url)).slice(0, 20));
        if (mode === 'half an event') res.write(stream ? 'data: {"ta' : '{"ta');
        if (mode === 'events, then silence') {
          res.write(stream ? sseEvent(binding, EVENTS.statusUpdate.valid) : ' ');
        }
      };
      const hungUp = agent.hungUp;
      const result = await outcome(() => invoke(clientFor(agent.url, binding, SILENCE), operation));
      expect(result).toEqual({ a2a: 'Unavailable', message: expect.stringMatching(/within 30 ms|for 30 ms/) });
      await expect.poll(() => agent.hungUp, { interval: 5 }).toBeGreaterThan(hungUp);
    });
  });

  it('card resolution (A2AClient.connect) against the same hostile answers', async () => {
    const card = cardFor('http://127.0.0.1:9');
    const answers = fc.oneof(
      wrongShape(card, CARD).map((s) => ({ kind: 'wrong shape', ...s })),
      fc.jsonValue().map((value) => ({ kind: 'any JSON', value, where: '' })),
      fc.constantFrom('endless', 'huge', 'silence', 'half a body', 'other origin', 'same origin').map((kind) => ({
        kind,
        value: undefined,
        where: '',
      })),
    );
    await check(fc.record({ answer: answers, path: fc.constantFrom('', '/agents/a', '/card.json') }), async (c) => {
      const { kind, value } = c.answer;
      agent.answer = (req, res) => {
        if (kind === 'silence') return;
        if (kind === 'endless') return endless(res.writeHead(200, json), 'n'.repeat(4096), '{"name":"');
        if (kind === 'huge') return void res.writeHead(200, json).end(JSON.stringify({ name: 'x'.repeat(64 * 1024) }));
        if (kind === 'half a body') return void res.writeHead(200, json).write('{"name":');
        if (kind === 'other origin') return void res.writeHead(302, { location: `${elsewhere.url}${req.url}` }).end();
        if (kind === 'same origin' && !req.url?.startsWith('/moved/')) {
          return void res.writeHead(301, { location: `/moved${req.url}` }).end();
        }
        res.writeHead(200, json).end(JSON.stringify(kind === 'same origin' ? card : value));
      };
      const silent = kind === 'silence' || kind === 'half a body';
      const options = { ...(silent ? SILENCE : LIMITS), bindings: ['JSONRPC' as const] };
      const result = await outcome(() => A2AClient.connect(`${agent.url}${c.path}`, options));
      if (kind === 'same origin') expect(result).toHaveProperty('resolved');
      else if (silent) expect(result).toEqual({ a2a: 'Unavailable', message: expect.any(String) });
      else if (kind === 'any JSON') expect(result).not.toHaveProperty('other');
      else expectInvalid(result);
    });
  });
});
