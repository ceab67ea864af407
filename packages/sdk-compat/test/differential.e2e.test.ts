// The differential suite: the same executors behind the SDK's own server and behind ours on every adapter, driven by
// the SDK's client over JSON-RPC and HTTP+JSON; every step's result is compared with ids and timestamps masked.
// Only the differences listed here may differ, each erased by its own rewrite; anything else fails.
import { writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  applyKnown,
  drop,
  everyObject,
  isEmpty,
  isFalse,
  type KnownDifference,
  Masker,
  refusal,
  replaceAll,
  rewrite,
} from './differential-normalize.js';
import { type Run, runScenarios, type Transport } from './differential-scenarios.js';
import { runV03Scenarios, type V03Transport } from './differential-scenarios-v03.js';
import { OUR_SERVERS, OUR_V03_SERVERS, type Running, sdkServer, sdkV03Server } from './differential-servers.js';

const REFUSED = { refused: 'UnsupportedOperation' };
const FAILED_TEXT = /^(Agent failed|Agent execution error): /;
const isEmptyObject = (v: unknown) => typeof v === 'object' && v !== null && Object.keys(v).length === 0;
const isTextPlain = (v: unknown) => v === 'text/plain';
/** A stream whose first event is the task (ProtoJSON `{ task }` or v0.3 `{ kind: 'task' }`) in `state`. */
const startsWithTask = (events: unknown, state: string) => {
  const [first] = Array.isArray(events) ? events : [];
  return (first?.task?.status?.state ?? (first?.kind === 'task' ? first.status?.state : undefined)) === state;
};

export const KNOWN_DIFFERENCES: KnownDifference[] = [
  {
    what: "ListTasks' pageSize: ours is the number of tasks in the page, the SDK's the page size asked for (default 50).",
    why: 'The spec says "the page size used for this response"; ours reports what the page holds, as a2a-java and a2a-dotnet do.',
    steps: /list\/context$/,
    erase: (result) => rewrite(result, [], 'pageSize', '<page size>'),
  },
  {
    what: 'v0.3, SendMessage to a finished task: SDK 0.3.14 answers -32600 InvalidRequest (over REST an untyped error), ours -32004 UnsupportedOperation.',
    why: 'The spec-correct code (the one SDK 1.x answers too): the request is well formed, the task takes no more messages.',
    steps: /^0\.3 [^:]*: error\/send-to-finished$/,
    erase: (result, side) => refusal(result, side === 'sdk' ? -32600 : -32004, 'UnsupportedOperation'),
  },
  {
    what: "v0.3 over HTTP+JSON, SetTaskPushNotificationConfig: SDK 0.3.14's server refuses the body its own client sends (-32602, it wants a `config` object), so nothing is stored; ours stores it.",
    why: 'An SDK 0.3.14 client/server mismatch. Ours reads the body the client sends; its push configs are compared with the SDK over JSON-RPC (A2AClient).',
    steps: /^0\.3 ClientFactory HTTP\+JSON: push\/(create|get|list)$/,
    erase: (result, side) =>
      (side === 'ours' ||
        isEmpty(result) ||
        /\(Code: -326(02|03)\)/.test(String((result as Record<string, unknown>).message))) && {
        replace: 'not comparable: the SDK server refuses its own client',
      },
  },
  {
    what: 'v0.3, a push config that is not there (GetTaskPushNotificationConfig after its delete): SDK 0.3.14 answers -32603 InternalError, ours -32001 TaskNotFound.',
    why: 'The spec-correct code, the one SDK 1.x answers too: nothing failed inside the server.',
    steps: /^0\.3 [^:]*: push\/get(-deleted)?$/,
    erase: (result, side) => refusal(result, side === 'sdk' ? -32603 : -32001, 'TaskNotFound'),
  },
  {
    what: 'v0.3, SubscribeToTask (tasks/resubscribe) of a finished task: SDK 0.3.14 streams the task once and ends, ours refuses it with -32004 UnsupportedOperation.',
    why: 'As the v1.0 spec and SDK 1.x: a finished task has nothing to subscribe to; GetTask reads it.',
    steps: /^0\.3 [^:]*: error\/subscribe-finished$/,
    erase: (result, side) =>
      side === 'sdk'
        ? replaceAll(result, (r) => r.length === 1 && r[0]?.status?.state === 'completed', REFUSED)
        : refusal(result, -32004, 'UnsupportedOperation'),
  },
  {
    what: "An execute() that throws, on a stream: SDK 1.x's first event is the task already FAILED, SDK 0.3.14 sends the FAILED status update alone; ours sends the task as created (SUBMITTED), then the FAILED status update.",
    why: "Ours creates the task before the agent runs, and every task stream starts with the task (the spec's first event); the SDKs make the task from the agent's first event, which never came.",
    steps: /error\/agent-throws-stream$/,
    erase: (result, side) => {
      const [first] = Array.isArray(result) ? result : [];
      const state = first?.task?.status?.state ?? (first?.kind === 'task' ? first.status?.state : undefined);
      const extra =
        side === 'sdk' ? state === 'TASK_STATE_FAILED' : state === 'TASK_STATE_SUBMITTED' || state === 'submitted';
      return extra && (result as unknown[]).splice(0, 1).length > 0;
    },
  },
  {
    what: "An execute() that throws, SDK 1.x: its FAILED status message (and the task) carry empty `metadata: {}` and its part `mediaType: 'text/plain'`; ours is a bare text part.",
    why: 'Ours writes only what is set (the same message in ProtoJSON terms, but for the empty maps).',
    steps: /^(1\.x|0\.3-via-1\.x) [^:]*: error\/agent-throws/,
    erase: (result, side) =>
      side === 'sdk' &&
      everyObject(result, (o) => {
        const parts = (o.parts as Record<string, unknown>[] | undefined) ?? [];
        const failure = parts.some((p) => FAILED_TEXT.test(String(p.text)));
        const inParts = failure
          ? parts.reduce((n, p) => n + drop(p, 'mediaType', isTextPlain) + drop(p, 'metadata', isEmptyObject), 0)
          : 0;
        return drop(o, 'metadata', isEmptyObject) + inParts;
      }),
  },
  {
    what: "An execute() that throws on a new task, SDK 0.3.14: the FAILED task gets a fresh random id (`requestContext.task?.id || uuidv4()`), not the one its request context and the user's message have, and its failure message no taskId; ours fails the task the request created, its message naming it.",
    why: 'An SDK 0.3.14 bug (SDK 1.x keeps the id): the client cannot GetTask the task its message went to.',
    steps: /^0\.3 [^:]*: error\/agent-throws/,
    erase: (result, side) =>
      everyObject(result, (o) => {
        const failure = (o.parts as { text?: string }[] | undefined)?.some((p) => FAILED_TEXT.test(p.text ?? ''));
        if (side === 'ours') return failure ? drop(o, 'taskId') : 0;
        const asked = (o.history as { taskId?: string }[] | undefined)?.[0]?.taskId;
        return o.kind === 'task' && asked !== undefined && rewrite(o, [], 'id', asked);
      }),
  },
  {
    what: "An execute() that throws: the FAILED status message says 'Agent failed: <its error>', the SDKs' 'Agent execution error: <its error>'.",
    why: "The engine's own wording, the same for every agent it runs (native or SDK).",
    steps: /error\/agent-throws/,
    erase: (result) =>
      everyObject(result, (o) => {
        if (typeof o.text !== 'string' || !FAILED_TEXT.test(o.text)) return 0;
        o.text = o.text.replace(FAILED_TEXT, '<agent failure>: ');
        return 1;
      }),
  },
  {
    what: 'The wording of the refusals of a finished task (CancelTask, SendMessage, SubscribeToTask) and of a deleted push config.',
    why: "The engine's own messages: they name the state (TASK_STATE_COMPLETED) where the SDK prints its enum number. The error type is compared.",
    steps: /(error\/(cancel|send-to|subscribe)-finished|push\/get-deleted)$/,
    erase: (result) => rewrite(result, [], 'message', '<message>'),
  },
  {
    what: 'v0.3, GetTask with historyLength 0: SDK 0.3.14 answers the whole history (`history.slice(-0)`), ours none.',
    why: 'An SDK 0.3.14 bug: 0 asks for no messages (SDK 1.x answers none too).',
    steps: /^0\.3 [^:]*: get\/history-0$/,
    erase: (result, side) => {
      const task = result as Record<string, unknown>;
      const history = task.history as unknown[] | undefined;
      if (side === 'sdk' ? !history?.length : history?.length) return false;
      task.history = '<history>';
      return true;
    },
  },
  {
    what: "SDK 1.x, a stream that continues an input-required task whose executor publishes no Task first: the SDK refuses the stream (UnsupportedOperation: 'Received statusUpdate before initial Message/Task event'); ours streams the task as stored, then the executor's events.",
    why: "Ours has the task whatever the executor publishes, and every task stream starts with it; the SDK builds it from the executor's events. The same continuation is compared with SDK 0.3.14 (below) and, blocking, with SDK 1.x.",
    steps: /^(1\.x|0\.3-via-1\.x) [^:]*: input-required\/stream-continue$/,
    erase: (result, side) => {
      const continued =
        side === 'sdk'
          ? !Array.isArray(result) && String((result as Record<string, unknown>).message).includes('before initial')
          : startsWithTask(result, 'TASK_STATE_INPUT_REQUIRED');
      return continued && { replace: 'refused by SDK 1.x' };
    },
  },
  {
    what: "v0.3, a stream that continues an input-required task whose executor publishes no Task first: SDK 0.3.14 starts with the executor's first status update, ours with the task as stored.",
    why: "Every task stream of ours starts with the task (the spec's first event).",
    steps: /^0\.3 [^:]*: input-required\/stream-continue$/,
    erase: (result, side) =>
      side === 'ours' && startsWithTask(result, 'input-required') && (result as unknown[]).splice(0, 1).length > 0,
  },
  {
    what: 'v0.3, GetTask without historyLength: SDK 0.3.14 answers `history: []`, ours the whole history.',
    why: 'An unset historyLength sets no limit (v1.0 spec, and SDK 1.x); ours reads every wire that way.',
    steps: /^0\.3 [^:]*: (get\/full|cancel\/get|input-required\/get|resubscribe)$/,
    erase: (result, side) =>
      [[], ['final']].some((path) =>
        rewrite(result, path, 'history', '<history>', (h) => (side === 'sdk' ? isEmpty(h) : Array.isArray(h))),
      ),
  },
  {
    what: 'v0.3 wire: SDK 0.3.14 writes empty lists and false flags (`artifacts: []`, `append: false`, `lastChunk: false`), ours leaves them out.',
    why: 'The same values (absent is empty or false in v0.3 JSON); ours writes only what is set.',
    steps: /^0\.3 /,
    erase: (result) =>
      everyObject(
        result,
        (o) => drop(o, 'artifacts', isEmpty) + drop(o, 'append', isFalse) + drop(o, 'lastChunk', isFalse),
      ),
  },
  {
    what: "A 0.3.x executor's status and artifact update metadata stays on the events; the 1.x SDK also merges it into the task's metadata.",
    why: 'Each generation as its own SDK server does (SDK 0.3.14 keeps it on the events): compared here with the 1.x executor on SDK 1.x.',
    steps: /^0\.3-via-1\.x /,
    erase: (result, side) =>
      side === 'sdk' &&
      everyObject(result, (o) => {
        const metadata = o.metadata as Record<string, unknown> | undefined;
        return metadata?.origin === 'scribe'
          ? drop(metadata, 'step') + drop(metadata, 'chunk') + drop(metadata, 'words')
          : 0;
      }),
  },
];

const TRANSPORTS: Transport[] = ['JSONRPC', 'HTTP+JSON'];
const V03_TRANSPORTS: V03Transport[] = ['A2AClient JSON-RPC', 'ClientFactory HTTP+JSON'];
const used = new Set<KnownDifference>();

/** Each step's result with the known differences erased, then masked: one alias table per run, steps in order. */
/** `comparison` names the steps for KNOWN_DIFFERENCES: `<generation> <client>: <step>`. */
function compare(comparison: string, sdk: Run, ours: Run): void {
  const masked = { sdk: new Masker(sdk.origin), ours: new Masker(ours.origin) };
  const view = (side: 'sdk' | 'ours', run: Run, step: string) =>
    masked[side].mask(applyKnown(KNOWN_DIFFERENCES, `${comparison}: ${step}`, run.steps[step], side, used));
  const steps = [...new Set([...Object.keys(sdk.steps), ...Object.keys(ours.steps)])];
  const results = {
    sdk: steps.map((step) => view('sdk', sdk, step)),
    ours: steps.map((step) => view('ours', ours, step)),
  };
  // DIFF_DUMP=/some/dir writes both sides of each test there, to read a failure with `diff`.
  if (process.env.DIFF_DUMP) {
    const name = `${process.env.DIFF_DUMP}/${expect.getState().currentTestName?.replace(/[^\w.-]+/g, '_')}`;
    for (const side of ['sdk', 'ours'] as const) {
      const named = Object.fromEntries(steps.map((step, i) => [step, results[side][i]]));
      writeFileSync(`${name}.${side}.json`, JSON.stringify(named, null, 1));
    }
  }
  steps.forEach((step, i) => {
    expect.soft(results.ours[i], step).toEqual(results.sdk[i]);
  });
}

/** Each SDK server's results, per client, made once when a suite first needs them. */
function baselineOf<T extends string>(start: () => Promise<Running>, run: (origin: string, t: T) => Promise<Run>) {
  const made = new Map<T, Promise<Run>>();
  let server: Promise<Running> | undefined;
  return {
    get(transport: T): Promise<Run> {
      server ??= start();
      if (!made.has(transport))
        made.set(
          transport,
          server.then((s) => run(s.origin, transport)),
        );
      return made.get(transport) as Promise<Run>;
    },
    close: async () => (await server)?.close(),
  };
}

const sdkBaseline = baselineOf(sdkServer, runScenarios);
const sdkV03Baseline = baselineOf(sdkV03Server, runV03Scenarios);
afterAll(async () => {
  await sdkBaseline.close();
  await sdkV03Baseline.close();
});

/** Our servers by name, each driven by every client of `transports`, compared with `baseline`. */
function differential<T extends string>(
  comparison: string,
  servers: Record<string, () => Promise<Running>>,
  transports: T[],
  run: (origin: string, transport: T) => Promise<Run>,
  baseline: { get(transport: T): Promise<Run> },
) {
  describe.each(Object.entries(servers))('ours on %s', (_name, start) => {
    let server: Running | undefined;
    beforeAll(async () => {
      server = await start();
    }, 60_000);
    afterAll(() => server?.close());

    it.each(transports)(
      '%s',
      async (transport) => {
        const expected = await baseline.get(transport);
        compare(`${comparison} ${transport}`, expected, await run((server as Running).origin, transport));
      },
      120_000,
    );
  });
}

describe('a 1.x executor: the SDK server and ours, through the SDK client', () => {
  differential('1.x', OUR_SERVERS, TRANSPORTS, runScenarios, sdkBaseline);
});

describe('a 0.3.x executor: the SDK 0.3.14 server and ours, through the 0.3 clients', () => {
  differential('0.3', OUR_V03_SERVERS, V03_TRANSPORTS, runV03Scenarios, sdkV03Baseline);
});

describe('a 0.3.x executor on ours, through the 1.x client, and the 1.x executor on the SDK 1.x server', () => {
  differential('0.3-via-1.x', OUR_V03_SERVERS, TRANSPORTS, runScenarios, sdkBaseline);
});

// Last, after every comparison above ran: an entry no comparison needs any more is stale and must go.
it('every known difference is still needed', () => {
  expect(KNOWN_DIFFERENCES.filter((difference) => !used.has(difference)).map((d) => d.what)).toEqual([]);
});
