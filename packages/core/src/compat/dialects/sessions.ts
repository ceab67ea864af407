import { z } from 'zod';
import { A2AError, isA2AError, toA2AError } from '../../errors.js';
import { eventStreamResponse } from '../../http/prepared.js';
import type { RequestUrl } from '../../http/request-url.js';
import { jsonResponse } from '../../http/responses.js';
import { challenges } from '../../http/security.js';
import { SSE_HEADERS } from '../../http/sse.js';
import { newId } from '../../ids.js';
import { merge } from '../../merge.js';
import type { Message } from '../../schemas/message.js';
import type { ListTasksRequest } from '../../schemas/requests.js';
import type { SendMessageResponse, Task } from '../../schemas/task.js';
import { parseNamedParams } from '../../server/operation-params.js';
import { OPERATIONS, type OperationEnv } from '../../server/operations.js';
import { ownerOf } from '../../server/request-handler.js';
import { AsyncQueue } from '../../store/async-queue.js';
import { isInterrupted, isTerminal } from '../../task-state.js';
import type { Dialect, DialectRoute, DialectSettings } from './dialect.js';
import { readObjectBody } from './read-body.js';
import { artifactToPart } from './session-artifacts.js';
import { type FeedItem, SessionFeed } from './session-feed.js';
import {
  contextMessages,
  MESSAGE_KEY,
  type MessageStamp,
  messageTime,
  type SessionMessage,
  sessionMessage,
} from './session-messages.js';
import { page, readLimit } from './session-pages.js';
import { createSession, endSession, loadSession, sessionEnded, sessionView } from './session-records.js';
import { sessionsCard } from './sessions-card.js';
import { invalidRequest, SessionsError, sessionNotFound, sessionsErrorResponse } from './sessions-errors.js';

// The "sessions" API (seed document 004) on the A2A engine: a session is a context, a message posted to it is a
// SendMessage in that context (continuing the context's newest task while it waits for input), and the session's
// messages are those of the context's tasks. The session record (creation, metadata, end) is in session-records.ts.

const CreateBody = z.looseObject({ metadata: z.record(z.string(), z.unknown()).nullish() });
const ArtifactBody = z.looseObject({
  id: z.string().min(1),
  type: z.string().min(1),
  data: z.unknown().refine((v) => v !== undefined && v !== null, 'required'),
  name: z.string().nullish(),
  description: z.string().nullish(),
});
const SendBody = z.looseObject({
  role: z.enum(['user', 'system']),
  content: z.string(),
  in_reply_to: z.string().nullish(),
  metadata: z.record(z.string(), z.unknown()).nullish(),
  artifacts: z.array(ArtifactBody).nullish(),
});

/** At most this many of a session's tasks are read (100 per page). */
const MAX_TASK_PAGES = 50;

type Handler = (
  request: Request,
  url: RequestUrl,
  env: OperationEnv,
  settings: DialectSettings,
  id: string,
) => Promise<Response>;

interface Route {
  pattern: RegExp;
  methods: Record<string, Handler>;
}

export function sessionsDialect(): Dialect {
  const feed = new SessionFeed();
  /** Open streams, ended by `close()` (as the engine ends its own), so the HTTP server can close. */
  const open = new Set<AsyncQueue<FeedItem>>();
  let closed = false;
  const feedKey = (env: OperationEnv, id: string) => `${ownerOf(env.call)}\u0000${id}`;
  const ROUTES: Route[] = [
    { pattern: /^\/card$/, methods: { GET: card } },
    { pattern: /^\/sessions$/, methods: { POST: create } },
    { pattern: /^\/sessions\/([^/]+)$/, methods: { GET: get, DELETE: end } },
    { pattern: /^\/sessions\/([^/]+)\/messages$/, methods: { POST: send, GET: list } },
    { pattern: /^\/sessions\/([^/]+)\/stream$/, methods: { GET: stream } },
  ];

  async function card(_r: Request, _u: RequestUrl, env: OperationEnv, settings: DialectSettings) {
    return jsonResponse(sessionsCard(env.publishCard(env.handler.agentCard)), 200, settings.headers);
  }

  async function create(request: Request, _u: RequestUrl, env: OperationEnv, settings: DialectSettings) {
    const body = checked(CreateBody, (await readObjectBody(request, settings)) ?? {});
    const session = await createSession(env.handler.store, env.call, body.metadata ?? undefined);
    return jsonResponse({ session }, 201, settings.headers);
  }

  async function get(_r: Request, _u: RequestUrl, env: OperationEnv, settings: DialectSettings, id: string) {
    const record = await loadSession(env.handler.store, env.call, id);
    if (!record) throw sessionNotFound(id);
    return jsonResponse({ session: sessionView(record.task) }, 200, settings.headers);
  }

  /** Ends the session: its record first (no new message gets in), then its live tasks are canceled. */
  async function end(_r: Request, _u: RequestUrl, env: OperationEnv, settings: DialectSettings, id: string) {
    const record = await loadSession(env.handler.store, env.call, id);
    if (!record) throw sessionNotFound(id);
    const ended = await endSession(env.handler.store, env.call, record);
    for (const task of await contextTasks(env, id)) await cancelQuietly(env, task);
    const session = sessionView(ended.task);
    feed.publish(feedKey(env, id), { ended: session });
    return jsonResponse({ session }, 200, settings.headers);
  }

  async function send(request: Request, _u: RequestUrl, env: OperationEnv, settings: DialectSettings, id: string) {
    const body = checked(SendBody, await readObjectBody(request, settings));
    const store = env.handler.store;
    const record = await loadSession(store, env.call, id);
    if (!record) throw sessionNotFound(id);
    if (sessionEnded(record)) throw sessionEndedError(id);
    const stamp: MessageStamp = {
      role: body.role,
      created_at: messageTime(),
      ...(body.in_reply_to != null && { in_reply_to: body.in_reply_to }),
    };
    const waiting = await waitingTask(env, id);
    const message = {
      messageId: newId(),
      role: 'ROLE_USER',
      contextId: id,
      ...(waiting && { taskId: waiting.id }),
      parts: [
        { text: body.content },
        ...(body.artifacts ?? []).map((a) =>
          artifactToPart({
            id: a.id,
            type: a.type,
            data: a.data,
            ...(a.name != null && { name: a.name }),
            ...(a.description != null && { description: a.description }),
          }),
        ),
      ],
      metadata: { ...body.metadata, [MESSAGE_KEY]: stamp },
    };
    const params = await parseNamedParams('SendMessage', { message });
    const result = await OPERATIONS.SendMessage.run(params, env);
    const produced = answerOf(result, message as Message, stamp.created_at);
    // Ended while the agent worked: what this message started does not outlive the session.
    const now = await loadSession(store, env.call, id);
    if (now && sessionEnded(now) && 'task' in result) await cancelQuietly(env, result.task);
    const key = feedKey(env, id);
    for (const item of produced) feed.publish(key, { message: item });
    const reply = produced[produced.length - 1];
    return jsonResponse({ message: reply }, 200, settings.headers);
  }

  async function list(_r: Request, url: RequestUrl, env: OperationEnv, settings: DialectSettings, id: string) {
    const limit = readLimit(url.searchParams.get('limit'));
    const record = await loadSession(env.handler.store, env.call, id);
    if (!record) throw sessionNotFound(id);
    const { items, pagination } = page(await messagesOf(env, id), url.searchParams.get('cursor'), limit);
    return jsonResponse({ messages: items, pagination }, 200, settings.headers);
  }

  /**
   * The session's messages so far (after `Last-Event-ID`, a message id, when given), then each new one as this handler
   * produces it; `event: session` with the ended session closes the stream.
   */
  async function stream(request: Request, _u: RequestUrl, env: OperationEnv, settings: DialectSettings, id: string) {
    const store = env.handler.store;
    if (closed) throw new A2AError('Unavailable', 'The server is shutting down; retry on another instance');
    if (!(await loadSession(store, env.call, id))) throw sessionNotFound(id);
    // Subscribed before reading, so nothing produced meanwhile is missed (duplicates are dropped by id).
    let unsubscribe = () => {};
    const queue = new AsyncQueue<FeedItem>(() => {
      unsubscribe();
      open.delete(queue);
    });
    unsubscribe = feed.subscribe(feedKey(env, id), (item) => queue.push(item));
    open.add(queue);
    try {
      const messages = await messagesOf(env, id);
      const after = request.headers.get('last-event-id');
      const from = after === null ? 0 : messages.findIndex((m) => m.id === after) + 1;
      const seen = new Set(messages.map((m) => m.id));
      let first = messages.slice(from).map(messageFrame).join('');
      const record = await loadSession(store, env.call, id);
      let done = !record || sessionEnded(record);
      if (record && done) first += sessionFrame(sessionView(record.task));
      const rest: AsyncIterator<string> = {
        async next() {
          while (!done) {
            const next = await queue.next();
            if (next.done) break;
            const item = next.value;
            if ('ended' in item) {
              done = true;
              return { value: sessionFrame(item.ended), done: false };
            }
            if (seen.has(item.message.id)) continue;
            seen.add(item.message.id);
            return { value: messageFrame(item.message), done: false };
          }
          await queue.return();
          return { value: undefined, done: true };
        },
        async return() {
          await queue.return();
          return { value: undefined, done: true };
        },
      };
      if (done) await queue.return();
      return eventStreamResponse(
        {
          keepAliveMs: settings.keepAliveMs,
          first,
          rest,
          errorFrame: (error) => `event: error\ndata: ${JSON.stringify(errorBody(error))}\n\n`,
        },
        { status: 200, headers: merge(SSE_HEADERS, settings.headers) },
      );
    } catch (error) {
      await queue.return();
      throw error;
    }
  }

  function match(method: string, path: string): DialectRoute | undefined {
    for (const route of ROUTES) {
      const m = route.pattern.exec(path);
      if (!m) continue;
      const handler = route.methods[method];
      const id = decodeSegment(m[1] ?? '');
      if (!handler) {
        const error = new A2AError('MethodNotAllowed', `Method ${method} not allowed here`);
        const allow = Object.keys(route.methods).join(', ');
        return { fail, serve: async (_r, _u, _e, settings) => fail(error, { ...settings.headers, allow }) };
      }
      return {
        fail,
        async serve(request, url, env, settings) {
          try {
            return await handler(request, url, env, settings, id);
          } catch (error) {
            if (error instanceof SessionsError) return fail(error, settings.headers);
            const a2a = toA2AError(error);
            if (a2a.type === 'Internal') settings.onError(error);
            const challenge =
              a2a.type === 'Unauthenticated' ? { 'www-authenticate': challenges(env.handler.agentCard) } : {};
            return fail(a2a, { ...settings.headers, ...challenge });
          }
        },
      };
    }
    return undefined;
  }

  return {
    match,
    close() {
      closed = true;
      for (const queue of open) queue.end();
    },
  };
}

const fail = (error: A2AError | SessionsError, headers: Record<string, string>) =>
  sessionsErrorResponse(error, headers);

const sessionEndedError = (id: string) =>
  new SessionsError('session_ended', 409, `Session ${id} has ended and accepts no more messages`, { session_id: id });

function checked<S extends z.ZodType>(schema: S, body: unknown): z.output<S> {
  const parsed = schema.safeParse(body ?? {});
  if (parsed.success) return parsed.data;
  const fields = parsed.error.issues.map((issue) => ({
    field: issue.path.map(String).join('.') || '(body)',
    description: issue.message,
  }));
  const summary = fields
    .slice(0, 3)
    .map((f) => `${f.field}: ${f.description}`)
    .join('; ');
  throw invalidRequest(`Invalid request: ${summary}`, fields);
}

/** The messages a send produced: the client's message and the agent's answer (last). */
function answerOf(result: SendMessageResponse, sent: Message, sentAt: string): SessionMessage[] {
  if ('message' in result && result.message) {
    return [sessionMessage(sent, sentAt), sessionMessage(result.message, messageTime(), sent.messageId)];
  }
  const messages = 'task' in result && result.task ? contextMessages([result.task]) : [];
  const at = messages.findIndex((m) => m.id === sent.messageId);
  return at < 0 ? messages : messages.slice(at);
}

/** Every task of the session's context (bounded). */
async function contextTasks(env: OperationEnv, contextId: string): Promise<Task[]> {
  const tasks: Task[] = [];
  let pageToken: string | undefined;
  for (let i = 0; i < MAX_TASK_PAGES; i++) {
    const request = { contextId, pageSize: 100, includeArtifacts: true, ...(pageToken && { pageToken }) };
    const result = (await OPERATIONS.ListTasks.run(request as ListTasksRequest, env)) as {
      tasks: Task[];
      nextPageToken: string;
    };
    tasks.push(...result.tasks);
    if (!result.nextPageToken) break;
    pageToken = result.nextPageToken;
  }
  return tasks;
}

const messagesOf = async (env: OperationEnv, id: string) => contextMessages(await contextTasks(env, id));

/** The context's newest task when it waits for the client: the next message continues it. */
async function waitingTask(env: OperationEnv, contextId: string): Promise<Task | undefined> {
  const request = { contextId, pageSize: 1 } as ListTasksRequest;
  const { tasks } = await OPERATIONS.ListTasks.run(request, env);
  const newest = tasks[0];
  return newest && isInterrupted(newest.status.state) ? newest : undefined;
}

async function cancelQuietly(env: OperationEnv, task: Task): Promise<void> {
  if (isTerminal(task.status.state)) return;
  try {
    await OPERATIONS.CancelTask.run({ id: task.id }, env);
  } catch (error) {
    // Finished meanwhile (not cancelable) or gone: nothing left to stop.
    if (!isA2AError(error) || (error.type !== 'TaskNotCancelable' && error.type !== 'TaskNotFound')) throw error;
  }
}

const sseId = (id: string) => (/[\r\n]/.test(id) ? '' : `id: ${id}\n`);
const messageFrame = (message: SessionMessage) =>
  `${sseId(message.id)}event: message\ndata: ${JSON.stringify({ message })}\n\n`;
const sessionFrame = (session: unknown) => `event: session\ndata: ${JSON.stringify({ session })}\n\n`;

function errorBody(error: unknown) {
  const a2a = toA2AError(error);
  return { error: { code: a2a.reason.toLowerCase(), message: a2a.message, details: { reason: a2a.reason } } };
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
