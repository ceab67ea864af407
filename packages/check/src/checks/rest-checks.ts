import { type Check, fail, skip, type Verdict } from '../check.js';
import type { CheckContext, Interface } from '../context.js';
import { rest, unknownTaskId } from './calls.js';
import { described, expectRestError } from './expect-error.js';
import { listShape } from './jsonrpc-checks.js';

/** Runs `body` against the run's v1.0 HTTP+JSON interface, or skips when there is none. */
const onRest =
  (body: (ctx: CheckContext, iface: Interface) => Promise<Verdict>) =>
  (ctx: CheckContext): Promise<Verdict> => {
    const iface = ctx.iface('http+json');
    return iface ? body(ctx, iface) : Promise.resolve(skip('no HTTP+JSON interface at protocol version 1.0 to check'));
  };

const streaming = (ctx: CheckContext) =>
  (ctx.card.capabilities as { streaming?: unknown } | undefined)?.streaming === true;

/** The HTTP+JSON binding's error semantics (§11.6) and ListTasks, read-only. */
export const REST_CHECKS: Check[] = [
  {
    id: 'http+json.task-not-found.get',
    area: 'http+json',
    level: 'MUST',
    spec: '§11.6 Error Handling, §5.4',
    title: 'GET /tasks/{unknown} gets 404 with ErrorInfo TASK_NOT_FOUND',
    run: onRest(async (ctx, iface) =>
      expectRestError(await rest(ctx, iface, 'GET', `/tasks/${unknownTaskId()}`), 'TaskNotFound'),
    ),
  },
  {
    id: 'http+json.task-not-found.cancel',
    area: 'http+json',
    level: 'MUST',
    spec: '§11.6 Error Handling, §3.1.5',
    title: 'POST /tasks/{unknown}:cancel gets 404 with ErrorInfo TASK_NOT_FOUND',
    run: onRest(async (ctx, iface) =>
      expectRestError(await rest(ctx, iface, 'POST', `/tasks/${unknownTaskId()}:cancel`, {}), 'TaskNotFound'),
    ),
  },
  {
    id: 'http+json.task-not-found.subscribe',
    area: 'http+json',
    level: 'MUST',
    spec: '§11.6 Error Handling, §3.1.6',
    title: 'POST /tasks/{unknown}:subscribe gets 404 with ErrorInfo TASK_NOT_FOUND',
    run: onRest(async (ctx, iface) => {
      if (!streaming(ctx)) return skip('streaming is not declared (capabilities.streaming-refused checks that)');
      return expectRestError(await rest(ctx, iface, 'POST', `/tasks/${unknownTaskId()}:subscribe`, {}), 'TaskNotFound');
    }),
  },
  {
    id: 'http+json.version-not-supported',
    area: 'http+json',
    level: 'MUST',
    spec: '§3.6.2 Server Responsibilities, §11.6',
    title: 'A2A-Version: 99.0 gets 400 with ErrorInfo VERSION_NOT_SUPPORTED',
    run: onRest(async (ctx, iface) =>
      expectRestError(
        await rest(ctx, iface, 'GET', `/tasks/${unknownTaskId()}`, undefined, { version: '99.0' }),
        'VersionNotSupported',
      ),
    ),
  },
  {
    id: 'http+json.invalid-params',
    area: 'http+json',
    level: 'MUST',
    spec: '§3.3.2 Error Handling (validation), §11.5',
    title: 'GET /tasks?pageSize=abc (not an integer) gets 400',
    run: onRest(async (ctx, iface) => {
      const answer = await rest(ctx, iface, 'GET', '/tasks?pageSize=abc');
      return answer.status === 400
        ? expectRestError(answer, 'InvalidParams')
        : fail(`expected HTTP 400, got ${described(answer)}`);
    }),
  },
  {
    id: 'http+json.list-tasks',
    area: 'http+json',
    level: 'MUST',
    spec: '§3.1.4 List Tasks, §11.3.2',
    title: 'GET /tasks answers tasks, nextPageToken (always present), pageSize and totalSize',
    run: onRest(async (ctx, iface) => {
      const answer = await rest(ctx, iface, 'GET', '/tasks');
      if (answer.status !== 200) return fail(`expected HTTP 200, got ${described(answer)}`);
      return listShape(answer.json, described(answer));
    }),
  },
];
