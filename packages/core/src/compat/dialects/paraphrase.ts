import { A2AError, toA2AError } from '../../errors.js';
import { type JsonRpcVersionRouter, serveJsonRpcCall } from '../../http/json-rpc.js';
import type { RequestUrl } from '../../http/request-url.js';
import { jsonResponse } from '../../http/responses.js';
import { challenges } from '../../http/security.js';
import { streamResponse } from '../../http/stream.js';
import { merge } from '../../merge.js';
import { parseParams } from '../../server/operation-params.js';
import { OPERATIONS, type Operation, type OperationEnv, type OperationName } from '../../server/operations.js';
import type { Dialect, DialectRoute, DialectSettings } from './dialect.js';
import { paraphraseErrorBody, paraphraseErrorResponse } from './paraphrase-errors.js';
import { paraphraseParams } from './paraphrase-params.js';
import { readObjectBody } from './read-body.js';

// The paraphrased v1.0 (seed document 002): JSON-RPC methods named `A2A.<Operation>` and its own REST paths, each
// served by the v1.0 operation of the same name. Its GET /tasks and GET /tasks/{id} are v1.0's own routes (same
// operation, snake_case query parameters accepted there too) and stay with the v1.0 binding.

const PREFIX = 'A2A.';
/** The paraphrase's operations table spells this one in the singular. */
const ALIASES: Record<string, string> = { ListTaskPushNotificationConfig: 'ListTaskPushNotificationConfigs' };

/** `A2A.SendMessage` → the v1.0 SendMessage call with the paraphrase's params rewritten. */
const jsonRpc: JsonRpcVersionRouter = async (call, env, settings) => {
  if (!call.method.startsWith(PREFIX)) return undefined;
  const given = call.method.slice(PREFIX.length);
  const name = Object.hasOwn(ALIASES, given) ? (ALIASES[given] as string) : given;
  if (!Object.hasOwn(OPERATIONS, name)) throw new A2AError('MethodNotFound', `Method not found: ${call.method}`);
  const operation = name as OperationName;
  return serveJsonRpcCall(
    { id: call.id, method: operation, params: paraphraseParams(operation, call.params) },
    env,
    settings,
  );
};

interface Route {
  method: string;
  pattern: RegExp;
  operation: OperationName;
  /** Request fields taken from the pattern's groups, in order. */
  fields: string[];
  body?: boolean;
}

const ID = '([^/]+)';
const ROUTES: Route[] = [
  { method: 'POST', pattern: /^\/messages$/, operation: 'SendMessage', fields: [], body: true },
  { method: 'POST', pattern: /^\/messages\/stream$/, operation: 'SendStreamingMessage', fields: [], body: true },
  { method: 'DELETE', pattern: new RegExp(`^/tasks/${ID}$`), operation: 'CancelTask', fields: ['id'] },
  { method: 'GET', pattern: new RegExp(`^/tasks/${ID}/stream$`), operation: 'SubscribeToTask', fields: ['id'] },
  {
    method: 'POST',
    pattern: new RegExp(`^/tasks/${ID}/notifications$`),
    operation: 'CreateTaskPushNotificationConfig',
    fields: ['taskId'],
    body: true,
  },
  {
    method: 'GET',
    pattern: new RegExp(`^/tasks/${ID}/notifications$`),
    operation: 'ListTaskPushNotificationConfigs',
    fields: ['taskId'],
  },
  {
    method: 'GET',
    pattern: new RegExp(`^/tasks/${ID}/notifications/${ID}$`),
    operation: 'GetTaskPushNotificationConfig',
    fields: ['taskId', 'id'],
  },
  {
    method: 'DELETE',
    pattern: new RegExp(`^/tasks/${ID}/notifications/${ID}$`),
    operation: 'DeleteTaskPushNotificationConfig',
    fields: ['taskId', 'id'],
  },
  { method: 'GET', pattern: /^\/agent-card$/, operation: 'GetExtendedAgentCard', fields: [] },
];

/** Paths only this dialect has: other methods there are answered 405 in its error shape. */
const OWNED = [
  /^\/messages(\/stream)?$/,
  /^\/agent-card$/,
  new RegExp(`^/tasks/${ID}/(stream|notifications)(/[^/]+)?$`),
];

function match(method: string, path: string): DialectRoute | undefined {
  const allowed: string[] = [];
  for (const route of ROUTES) {
    const m = route.pattern.exec(path);
    if (!m) continue;
    if (route.method !== method) {
      allowed.push(route.method);
      continue;
    }
    const fields: Record<string, string> = {};
    route.fields.forEach((field, i) => {
      fields[field] = decodeSegment(m[i + 1] ?? '');
    });
    return { serve: (request, url, env, settings) => serve(route, fields, request, url, env, settings), fail };
  }
  if (allowed.length && OWNED.some((p) => p.test(path))) {
    const error = new A2AError('MethodNotAllowed', `Method ${method} not allowed here`);
    const allow = { allow: [...new Set(allowed)].join(', ') };
    return { serve: async (_r, _u, _e, settings) => fail(error, { ...settings.headers, ...allow }), fail };
  }
  return undefined;
}

const fail: DialectRoute['fail'] = (error, headers) => paraphraseErrorResponse(error, headers);

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

async function serve(
  route: Route,
  fields: Record<string, string>,
  request: Request,
  url: RequestUrl,
  env: OperationEnv,
  settings: DialectSettings,
): Promise<Response> {
  const headers = settings.headers;
  try {
    const body = route.body ? ((await readObjectBody(request, settings)) ?? {}) : {};
    const query: Record<string, unknown> = route.body ? {} : Object.fromEntries(url.searchParams);
    delete query['A2A-Version'];
    const operation: Operation = OPERATIONS[route.operation];
    const checked = parseParams(operation, paraphraseParams(route.operation, { ...query, ...body, ...fields }));
    const params = checked instanceof Promise ? await checked : checked;
    if (operation.stream) {
      return await streamResponse(
        operation.run(params, env),
        merge(settings, {
          earlyErrors: 'json' as const,
          frame: (event: unknown) => JSON.stringify(event),
          errorJson: (error: A2AError) => JSON.stringify(paraphraseErrorBody(error)),
          earlyError: (error: A2AError) => paraphraseErrorResponse(error, headers),
        }),
      );
    }
    return jsonResponse(await operation.run(params, env), 200, headers);
  } catch (error) {
    const a2a = toA2AError(error);
    if (a2a.type === 'Internal') settings.onError(error);
    const challenge = a2a.type === 'Unauthenticated' ? { 'www-authenticate': challenges(env.handler.agentCard) } : {};
    return paraphraseErrorResponse(a2a, { ...headers, ...challenge });
  }
}

/** The paraphrase dialect: `A2A.`-prefixed JSON-RPC methods and its REST paths. */
export const paraphraseDialect: Dialect = { match, jsonRpc };
