import { parseNamedParams } from '../server/operation-params.js';
import type { OperationEnv } from '../server/operations.js';
import { taskToProto } from './v03-proto-json.js';
import { toV03Task } from './v03-translate.js';

// `GET /v1/tasks` of the v0.3 HTTP+JSON binding. v0.3 JSON-RPC has no tasks/list and the v0.3 REST listing is
// underspecified, so this is the v1.0 ListTasks with v0.3 spellings: query names in snake_case or camelCase, states
// as v0.3 names (`input-required`) or proto names (`TASK_STATE_CANCELLED` too), tasks printed like every v0.3 REST task.

/** A v0.3 state name (kebab or proto, either spelling of canceled) as the v1.0 enum name. */
function stateFromV03(state: string): string {
  if (state === 'TASK_STATE_CANCELLED' || state === 'canceled' || state === 'cancelled') return 'TASK_STATE_CANCELED';
  if (/^[a-z-]+$/.test(state)) return `TASK_STATE_${state.toUpperCase().replaceAll('-', '_')}`;
  return state; // proto names and numbers go to the schema as they are
}

export async function listTasksV03(query: URLSearchParams, env: OperationEnv): Promise<Record<string, unknown>> {
  const params: Record<string, unknown> = Object.fromEntries(query);
  delete params['A2A-Version'];
  if (typeof params.status === 'string') params.status = stateFromV03(params.status);
  const request = await parseNamedParams('ListTasks', params);
  const page = await env.handler.listTasks(request, env.call);
  return {
    tasks: page.tasks.map((task) => taskToProto(toV03Task(task))),
    next_page_token: page.nextPageToken,
    page_size: page.pageSize,
    total_size: page.totalSize,
  };
}
