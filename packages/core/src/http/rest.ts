import { A2AError, toA2AError } from '../errors.js';
import { merge } from '../merge.js';
import { parseParams } from '../server/operation-params.js';
import { OPERATIONS, type Operation, type OperationEnv, type OperationName, withCall } from '../server/operations.js';
import { isJsonContentType, jsonValue, readJsonBody } from './body.js';
import type { RequestUrl } from './request-url.js';
import { type HeaderInit, jsonResponse, restMediaType, statusErrorResponse } from './responses.js';
import { withChallenge } from './security.js';
import { type StreamSettings, streamResponse } from './stream.js';

interface Route {
  method: string | string[];
  pattern: RegExp;
  operation: OperationName;
  /** Names of the pattern's groups, in order, as request fields. */
  fields: string[];
  body?: boolean;
}

const ID = '([^/:]+)';
const ROUTES: Route[] = [
  { method: 'POST', pattern: /^\/message:send$/, operation: 'SendMessage', fields: [], body: true },
  { method: 'POST', pattern: /^\/message:stream$/, operation: 'SendStreamingMessage', fields: [], body: true },
  { method: 'GET', pattern: /^\/tasks$/, operation: 'ListTasks', fields: [] },
  { method: 'GET', pattern: new RegExp(`^/tasks/${ID}$`), operation: 'GetTask', fields: ['id'] },
  { method: 'POST', pattern: new RegExp(`^/tasks/${ID}:cancel$`), operation: 'CancelTask', fields: ['id'], body: true },
  {
    method: ['GET', 'POST'],
    pattern: new RegExp(`^/tasks/${ID}:subscribe$`),
    operation: 'SubscribeToTask',
    fields: ['id'],
    body: true,
  },
  {
    method: 'POST',
    pattern: new RegExp(`^/tasks/${ID}/pushNotificationConfigs$`),
    operation: 'CreateTaskPushNotificationConfig',
    fields: ['taskId'],
    body: true,
  },
  {
    method: 'GET',
    pattern: new RegExp(`^/tasks/${ID}/pushNotificationConfigs$`),
    operation: 'ListTaskPushNotificationConfigs',
    fields: ['taskId'],
  },
  {
    method: 'GET',
    pattern: new RegExp(`^/tasks/${ID}/pushNotificationConfigs/${ID}$`),
    operation: 'GetTaskPushNotificationConfig',
    fields: ['taskId', 'id'],
  },
  {
    method: 'DELETE',
    pattern: new RegExp(`^/tasks/${ID}/pushNotificationConfigs/${ID}$`),
    operation: 'DeleteTaskPushNotificationConfig',
    fields: ['taskId', 'id'],
  },
  { method: 'GET', pattern: /^\/extendedAgentCard$/, operation: 'GetExtendedAgentCard', fields: [] },
];

export interface RestMatch {
  route: Route;
  pathFields: Record<string, string>;
  tenant: string | undefined;
}

/** Finds the route for a path (optionally behind a `/{tenant}` segment); `allowed` lists methods on a 405. */
export function matchRest(method: string, path: string): RestMatch | { allowed: string[] } | undefined {
  const direct = matchPath(method, path, undefined);
  if (direct) return direct;
  const tenant = /^\/([^/]+)(\/.*)$/.exec(path);
  if (tenant?.[1] && tenant[2]) return matchPath(method, tenant[2], safeDecode(tenant[1]));
  return undefined;
}

function matchPath(method: string, path: string, tenant: string | undefined) {
  const allowed: string[] = [];
  for (const route of ROUTES) {
    const m = route.pattern.exec(path);
    if (!m) continue;
    const methods = typeof route.method === 'string' ? [route.method] : route.method;
    if (!methods.includes(method)) {
      allowed.push(...methods);
      continue;
    }
    const pathFields: Record<string, string> = {};
    route.fields.forEach((field, i) => {
      pathFields[field] = safeDecode(m[i + 1] ?? '');
    });
    return { route, pathFields, tenant };
  }
  return allowed.length ? { allowed } : undefined;
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** Serves one HTTP+JSON request for a matched route. */
export async function serveRest(
  request: Request,
  url: RequestUrl,
  match: RestMatch,
  env: OperationEnv,
  settings: StreamSettings & { maxBodyBytes: number; maxJsonDepth: number; headers: HeaderInit },
): Promise<Response> {
  const { route, pathFields, tenant } = match;
  const mediaType = restMediaType(request);
  env.telemetry?.method(route.operation);
  try {
    let body: Record<string, unknown> = {};
    if (route.body) {
      const read = await readJsonBody(request, settings.maxBodyBytes);
      if (!('text' in read) || read.text.trim() !== '') {
        if (!isJsonContentType(request.headers.get('content-type'))) {
          throw new A2AError('UnsupportedMediaType', 'Content-Type must be application/json or application/a2a+json');
        }
        const parsed = jsonValue(read, settings.maxJsonDepth);
        if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
          throw new A2AError('InvalidParams', 'Invalid params: the body must be a JSON object');
        }
        body = parsed as Record<string, unknown>;
      }
    }
    const query = route.body ? {} : Object.fromEntries(url.searchParams);
    delete query['A2A-Version'];
    const operation: Operation = OPERATIONS[route.operation];
    const checked = parseParams(operation, { ...query, ...body, ...pathFields });
    const params = checked instanceof Promise ? await checked : checked;
    const scoped = tenant === undefined ? env : withCall(env, { tenant });
    if (operation.stream) {
      return await streamResponse(
        operation.run(params, scoped),
        merge(settings, {
          earlyErrors: 'json' as const, // REST clients read the HTTP status
          frame: (event: unknown) => JSON.stringify(event),
          errorJson: (error: A2AError) => JSON.stringify(error.toStatusBody()),
          earlyError: (error: A2AError) => statusErrorResponse(error, settings.headers, mediaType),
        }),
      );
    }
    const result = await operation.run(params, scoped);
    return jsonResponse(result, 200, settings.headers, mediaType);
  } catch (error) {
    env.telemetry?.fail(error);
    const a2a = toA2AError(error);
    if (a2a.type === 'Internal') settings.onError(error);
    return statusErrorResponse(a2a, withChallenge(a2a, env, settings.headers), mediaType);
  }
}
