import { randomUUID } from 'node:crypto';
import { isTerminal, type TaskState } from '@a2a/core';
import { SendMessageResponseSchema, StreamResponseSchema, TaskSchema } from '@a2a/core/schemas';
import { type Check, fail, pass, skip, type Verdict } from '../check.js';
import type { CheckContext } from '../context.js';
import { listShape } from './jsonrpc-checks.js';
import { type Outcome, operate, sendInterface } from './operations.js';

interface SentTask {
  id: string;
  contextId: string;
  state: TaskState;
}

const TASK_KEY = 'send.task';

export const userMessage = (text: string) => ({
  message: { messageId: randomUUID(), role: 'ROLE_USER', parts: [{ text }] },
});

/** The part of a core schema read here (its field-named issues). */
interface Schema {
  safeParse(
    value: unknown,
  ): { success: true } | { success: false; error: { issues: { path: PropertyKey[]; message: string }[] } };
}

/** Field-named schema problems of a value, or undefined when it is valid. */
function problems(schema: Schema, value: unknown): string | undefined {
  const parsed = schema.safeParse(value);
  if (parsed.success) return undefined;
  return parsed.error.issues
    .slice(0, 3)
    .map((i) => `${i.path.map(String).join('.') || '(result)'}: ${i.message}`)
    .join('; ');
}

/** Runs `body` only with `--send` and an interface to send on. */
const sending =
  (
    body: (ctx: CheckContext, target: NonNullable<ReturnType<typeof sendInterface>>, text: string) => Promise<Verdict>,
  ) =>
  async (ctx: CheckContext): Promise<Verdict> => {
    if (ctx.options.send === undefined) return skip('creates a task: run with --send "<text>" to allow it');
    const target = sendInterface(ctx);
    return target ? body(ctx, target, ctx.options.send) : skip('no v1.0 interface to send on');
  };

const outcomeError = (o: Outcome) =>
  `${o.binding} answered ${o.error !== undefined ? `error ${o.error}` : o.described}`;

/** With `--send`: a message round trip, reading the task back, streaming, and cancel. */
export const SEND_CHECKS: Check[] = [
  {
    id: 'send.message',
    area: 'send',
    level: 'MUST',
    spec: '§3.1.1 Send Message, §3.2.3',
    title: 'SendMessage answers a valid Task or Message',
    run: sending(async (ctx, target, text) => {
      const outcome = await operate(ctx, target, 'send', userMessage(text));
      if (outcome.result === undefined) return fail(outcomeError(outcome));
      const wrong = problems(SendMessageResponseSchema, outcome.result);
      if (wrong) return fail(`not a SendMessageResponse: ${wrong}`);
      const { task, message } = outcome.result as {
        task?: SentTask & { status: { state: TaskState } };
        message?: unknown;
      };
      if (!task) return pass(message ? 'answered a Message (no task)' : undefined);
      ctx.shared.set(TASK_KEY, { id: task.id, contextId: task.contextId, state: task.status.state });
      return pass(`task ${task.id} ${task.status.state}`);
    }),
  },
  {
    id: 'send.get-task',
    area: 'send',
    level: 'MUST',
    spec: '§3.1.3 Get Task',
    title: 'GetTask reads the sent task back (same id and contextId)',
    run: sending(async (ctx, target) => {
      const sent = ctx.shared.get(TASK_KEY) as SentTask | undefined;
      if (!sent) return skip('no task was created by send.message');
      const outcome = await operate(ctx, target, 'get', { id: sent.id });
      if (outcome.result === undefined) return fail(outcomeError(outcome));
      const wrong = problems(TaskSchema, outcome.result);
      if (wrong) return fail(`not a Task: ${wrong}`);
      const task = outcome.result as SentTask & { status: { state: TaskState } };
      if (task.id !== sent.id || task.contextId !== sent.contextId)
        return fail(`asked for ${sent.id} (context ${sent.contextId}), got ${task.id} (context ${task.contextId})`);
      ctx.shared.set(TASK_KEY, { ...sent, state: task.status.state });
      return pass(task.status.state);
    }),
  },
  {
    id: 'send.streaming',
    area: 'send',
    level: 'MUST',
    spec: '§3.1.2 Send Streaming Message, §11.7, §10.7',
    title:
      'SendStreamingMessage streams (SSE; gRPC: server streaming): a Task or Message first, then updates of that task',
    run: sending(async (ctx, target, text) => {
      const streaming = (ctx.card.capabilities as { streaming?: unknown } | undefined)?.streaming === true;
      if (!streaming) return skip('streaming is not declared (capabilities.streaming-refused checks the refusal)');
      const outcome = await operate(ctx, target, 'stream', userMessage(text));
      if (outcome.binding === 'GRPC')
        return outcome.error !== undefined ? fail(outcomeError(outcome)) : streamResponses(outcome.events ?? []);
      if (!outcome.events) return fail(`expected Content-Type text/event-stream, got ${outcome.described}`);
      if (outcome.events.length === 0) return fail('the stream closed without an event');
      return streamOrder(outcome.events as string[], outcome.binding);
    }),
  },
  {
    id: 'send.list-tasks-paging',
    area: 'send',
    level: 'MUST',
    spec: '§3.1.4 List Tasks (cursor-based pagination)',
    title: 'ListTasks with pageSize 1 gives one task and a nextPageToken that reads the next page',
    run: sending(async (ctx, target) => {
      const first = await operate(ctx, target, 'list', { pageSize: 1 });
      const shape = listShape(first.result, first.described);
      if (shape.status === 'fail') return fail(`ListTasks {pageSize: 1}: ${shape.detail}`);
      const page = first.result as { tasks: { id: string }[]; nextPageToken: string; totalSize: number };
      if (page.totalSize < 2) return skip(`${page.totalSize} task(s) visible: paging needs two`);
      if (page.tasks.length !== 1) return fail(`pageSize 1 gave ${page.tasks.length} tasks`);
      if (page.nextPageToken === '')
        return fail(`totalSize is ${page.totalSize} but nextPageToken is "" after one task`);
      const next = await operate(ctx, target, 'list', { pageSize: 1, pageToken: page.nextPageToken });
      const nextShape = listShape(next.result, next.described);
      if (nextShape.status === 'fail') return fail(`the next page: ${nextShape.detail}`);
      const second = (next.result as { tasks: { id: string }[] }).tasks;
      if (second.length !== 1 || second[0]?.id === page.tasks[0]?.id)
        return fail(`the next page repeats or lacks a task: ${JSON.stringify(second.map((t) => t.id))}`);
      return pass(`${page.totalSize} tasks, two pages read`);
    }),
  },
  {
    id: 'send.cancel',
    area: 'send',
    level: 'MUST',
    spec: '§3.1.5 Cancel Task',
    title: 'CancelTask cancels a running task, or refuses a finished one with TaskNotCancelableError',
    run: sending(async (ctx, target) => {
      const sent = ctx.shared.get(TASK_KEY) as SentTask | undefined;
      if (!sent) return skip('no task was created by send.message');
      const outcome = await operate(ctx, target, 'cancel', { id: sent.id });
      const notCancelable = outcome.error === -32002 || outcome.error === 'TASK_NOT_CANCELABLE';
      if (isTerminal(sent.state) && sent.state !== 'TASK_STATE_CANCELED')
        return notCancelable
          ? pass(`${sent.state}: refused`)
          : fail(`the task is ${sent.state}: expected TaskNotCancelableError, ${outcomeError(outcome)}`);
      if (notCancelable) return pass('refused with TaskNotCancelableError');
      if (outcome.result === undefined) return fail(outcomeError(outcome));
      const task = outcome.result as { id?: unknown; status?: { state?: unknown } };
      if (task.id !== sent.id) return fail(`canceled ${String(task.id)}, asked for ${sent.id}`);
      return task.status?.state === 'TASK_STATE_CANCELED'
        ? pass()
        : fail(`the answered task is ${String(task.status?.state)}, expected TASK_STATE_CANCELED`);
    }),
  },
];

/** §11.7: first a Task (or a single Message), then status/artifact updates of that task (a final Task snapshot may come). */
function streamOrder(events: string[], binding: 'JSONRPC' | 'HTTP+JSON'): Verdict {
  const payloads: unknown[] = [];
  for (const [i, data] of events.entries()) {
    let value: unknown;
    try {
      value = JSON.parse(data);
    } catch {
      return fail(`event ${i + 1} is not JSON: ${data.slice(0, 120)}`);
    }
    const payload = binding === 'JSONRPC' ? (value as { result?: unknown }).result : value;
    if (payload === undefined) return fail(`event ${i + 1} carries no result: ${data.slice(0, 160)}`);
    payloads.push(payload);
  }
  return streamResponses(payloads);
}

/**
 * A stream's StreamResponses (any binding, §3.1.2): each valid, a Task first (or one Message alone), then updates of
 * that task.
 */
export function streamResponses(values: unknown[]): Verdict {
  const payloads: Record<string, { id?: string; taskId?: string }>[] = [];
  for (const [i, payload] of values.entries()) {
    const wrong = problems(StreamResponseSchema, payload);
    if (wrong) return fail(`event ${i + 1} is not a StreamResponse: ${wrong}`);
    payloads.push(payload as Record<string, { id?: string; taskId?: string }>);
  }
  if (payloads.length === 0) return fail('the stream closed without an event');
  const [first, ...rest] = payloads;
  if (first?.message) return rest.length === 0 ? pass('one Message') : fail('events came after the single Message');
  if (!first?.task) return fail(`the first event is ${Object.keys(first ?? {}).join(',')}, expected task or message`);
  const id = first.task.id;
  for (const [i, p] of rest.entries()) {
    const of = p.statusUpdate?.taskId ?? p.artifactUpdate?.taskId ?? p.task?.id;
    if (p.message) return fail(`event ${i + 2} is a Message after the Task`);
    if (of !== id) return fail(`event ${i + 2} is about task ${String(of)}, the stream's task is ${id}`);
  }
  return pass(`${payloads.length} event(s)`);
}
