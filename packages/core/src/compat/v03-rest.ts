import { A2AError, toA2AError } from '../errors.js';
import { jsonValue, readJsonBody } from '../http/body.js';
import { textResponse } from '../http/prepared.js';
import type { RequestUrl } from '../http/request-url.js';
import { type HeaderInit, jsonResponse } from '../http/responses.js';
import { challenges } from '../http/security.js';
import { type StreamSettings, streamResponse } from '../http/stream.js';
import { isObject } from '../is-object.js';
import { merge } from '../merge.js';
import type { StreamResponse } from '../schemas/task.js';
import type { OperationEnv } from '../server/operations.js';
import { LegacyMethods } from './legacy-methods.js';
import { listTasksV03 } from './v03-list-tasks.js';
import {
  pushConfigFromProto,
  pushConfigToProto,
  resultToProto,
  sendParamsFromProto,
  taskToProto,
} from './v03-proto-json.js';
import type { V03Message, V03StreamResult, V03Task } from './v03-types.js';

// The v0.3 HTTP+JSON binding (`/v1/...`), translated onto the same v0.3 method table as the JSON-RPC wire, so both
// legacy bindings share one translation. Bodies are the v0.3 proto's ProtoJSON (see v03-proto-json.ts).

type Json = Record<string, unknown>;
interface Route {
  method: string;
  pattern: RegExp;
  /** The v0.3 JSON-RPC method and its params for this request. */
  call?(match: string[], body: Json, query: URLSearchParams): { method: string; params: Json };
  /** Routes with no v0.3 JSON-RPC method answer here (the REST wire body). */
  run?(query: URLSearchParams, env: OperationEnv): Promise<unknown>;
  /** How the unary v0.3 JSON result goes on the REST wire. */
  out?: (result: unknown) => unknown;
  body?: boolean;
}

const seg = '([^/:]+)';
const historyLength = (q: URLSearchParams) => {
  const raw = q.get('history_length') ?? q.get('historyLength');
  return raw === null ? undefined : Number(raw);
};

const ROUTES: Route[] = [
  { method: 'GET', pattern: /^\/v1\/tasks$/, run: listTasksV03 },
  {
    method: 'GET',
    pattern: /^\/v1\/card$/,
    call: () => ({ method: 'agent/getAuthenticatedExtendedCard', params: {} }),
  },
  {
    method: 'POST',
    pattern: /^\/v1\/message:send$/,
    body: true,
    call: (_m, body) => ({ method: 'message/send', params: sendParamsFromProto(body) }),
    out: (r) => resultToProto(r as V03Task | V03Message),
  },
  {
    method: 'POST',
    pattern: /^\/v1\/message:stream$/,
    body: true,
    call: (_m, body) => ({ method: 'message/stream', params: sendParamsFromProto(body) }),
  },
  {
    method: 'GET',
    pattern: new RegExp(`^/v1/tasks/${seg}$`),
    call: ([id], _b, q) => ({ method: 'tasks/get', params: { id, historyLength: historyLength(q) } }),
    out: (r) => taskToProto(r as V03Task),
  },
  {
    method: 'POST',
    pattern: new RegExp(`^/v1/tasks/${seg}:cancel$`),
    body: true,
    call: ([id]) => ({ method: 'tasks/cancel', params: { id } }),
    out: (r) => taskToProto(r as V03Task),
  },
  {
    method: 'GET|POST',
    pattern: new RegExp(`^/v1/tasks/${seg}:subscribe$`),
    call: ([id]) => ({ method: 'tasks/resubscribe', params: { id } }),
  },
  {
    method: 'POST',
    pattern: new RegExp(`^/v1/tasks/${seg}/pushNotificationConfigs$`),
    body: true,
    call: ([id], body) => {
      // CreateTaskPushNotificationConfigRequest {parent, config_id, config: {name, push_notification_config}}, or
      // the TaskPushNotificationConfig / PushNotificationConfig itself.
      const outer = isObject(body.config) ? body.config : body;
      const inner = outer.push_notification_config ?? outer.pushNotificationConfig ?? outer;
      const config = isObject(inner) ? pushConfigFromProto(inner) : inner;
      const configId = body.config_id ?? body.configId;
      if (isObject(config) && config.id === undefined && typeof configId === 'string' && configId) config.id = configId;
      return { method: 'tasks/pushNotificationConfig/set', params: { taskId: id, pushNotificationConfig: config } };
    },
    out: (r) => pushConfigToProto(r as never),
  },
  {
    method: 'GET',
    pattern: new RegExp(`^/v1/tasks/${seg}/pushNotificationConfigs$`),
    call: ([id]) => ({ method: 'tasks/pushNotificationConfig/list', params: { id } }),
    out: (r) => ({ configs: (r as never[]).map(pushConfigToProto), nextPageToken: '' }),
  },
  {
    method: 'GET',
    pattern: new RegExp(`^/v1/tasks/${seg}/pushNotificationConfigs/${seg}$`),
    call: ([id, configId]) => ({
      method: 'tasks/pushNotificationConfig/get',
      params: { id, pushNotificationConfigId: configId },
    }),
    out: (r) => pushConfigToProto(r as never),
  },
  {
    method: 'DELETE',
    pattern: new RegExp(`^/v1/tasks/${seg}/pushNotificationConfigs/${seg}$`),
    call: ([id, configId]) => ({
      method: 'tasks/pushNotificationConfig/delete',
      params: { id, pushNotificationConfigId: configId },
    }),
    out: () => ({}),
  },
];

/** v0.3 error names (the JSON-RPC error types of v0.3), which v0.3 REST clients look for in `error`. */
const V03_ERROR_NAMES: Record<number, string> = {
  [-32700]: 'JSONParseError',
  [-32600]: 'InvalidRequestError',
  [-32601]: 'MethodNotFoundError',
  [-32602]: 'InvalidParamsError',
  [-32603]: 'InternalError',
  [-32001]: 'TaskNotFoundError',
  [-32002]: 'TaskNotCancelableError',
  [-32003]: 'PushNotificationNotSupportedError',
  [-32004]: 'UnsupportedOperationError',
  [-32005]: 'ContentTypeNotSupportedError',
  [-32006]: 'InvalidAgentResponseError',
  [-32007]: 'AuthenticatedExtendedCardNotConfiguredError',
};

/** v0.3 REST had no normative error body: `{error: <v0.3 error name>, code, message}` with the v1.0 HTTP status. */
export function v03RestErrorBody(error: A2AError): string {
  const { code, message } = error.toJsonRpcError();
  return JSON.stringify({ error: V03_ERROR_NAMES[code] ?? 'InternalError', code, message });
}

function errorResponse(error: A2AError, headers: HeaderInit): Response {
  return textResponse(v03RestErrorBody(error), {
    status: error.httpStatus,
    headers: { 'content-type': 'application/json', ...headers },
  });
}

export type V03RestMatch = { route: Route; params: string[] } | { allowed: string[] };

/** The v0.3 REST route for a method and a path relative to the mount point, if the path is one. */
export function matchV03Rest(method: string, path: string): V03RestMatch | undefined {
  if (!path.startsWith('/v1/')) return undefined;
  const allowed: string[] = [];
  for (const route of ROUTES) {
    const m = route.pattern.exec(path);
    if (!m) continue;
    if (route.method.split('|').includes(method)) return { route, params: m.slice(1).map(decodeURIComponent) };
    allowed.push(...route.method.split('|'));
  }
  return allowed.length ? { allowed } : undefined;
}

/**
 * How v0.3 REST stream frames are printed: 'proto' (the v0.3 proto's StreamResponse, `{task}` / `{status_update}`...,
 * what v0.3 SDK REST clients parse) or 'json' (the bare kind-tagged v0.3 JSON objects of the JSON-RPC wire, which
 * a2a-js and the v0.3 conformance kit read).
 */
export type V03RestStreamFrames = 'proto' | 'json';

/** The settings a v0.3 REST request is served with (those of the v1.0 routes). */
export type V03RestSettings = StreamSettings & { maxBodyBytes: number; maxJsonDepth: number; headers: HeaderInit };

/**
 * The v0.3 REST wire, made by the handler when a request first needs it (`handler/lazy-wires.ts`): its routes
 * (`match`) and the server that answers them (`serve`) through the v0.3 method table.
 */
export class V03RestServer {
  readonly #legacy = new LegacyMethods();
  readonly #bareFrames: boolean;

  constructor(options: { streamFrames?: V03RestStreamFrames } = {}) {
    this.#bareFrames = options.streamFrames === 'json';
  }

  /** The v0.3 REST route for a method and a path relative to the mount point, if the path is one. */
  match(method: string, path: string): V03RestMatch | undefined {
    return matchV03Rest(method, path);
  }

  /** Serves one v0.3 REST request through the v0.3 method table. Never throws. */
  async serve(
    request: Request,
    url: RequestUrl,
    match: V03RestMatch,
    env: OperationEnv,
    settings: V03RestSettings,
  ): Promise<Response> {
    const headers = settings.headers;
    try {
      if ('allowed' in match) {
        const error = new A2AError('MethodNotFound', `Method ${request.method} not allowed on ${url.pathname}`);
        return textResponse(v03RestErrorBody(error), {
          status: 405,
          headers: { 'content-type': 'application/json', allow: [...new Set(match.allowed)].join(', '), ...headers },
        });
      }
      const { route, params } = match;
      let body: Json = {};
      if (route.body) {
        const read = await readJsonBody(request, settings.maxBodyBytes);
        if (!('text' in read) || read.text.trim() !== '') {
          const parsed = jsonValue(read, settings.maxJsonDepth);
          if (!isObject(parsed)) throw new A2AError('InvalidParams', 'Invalid params: the body must be a JSON object');
          body = parsed;
        }
      }
      if (!route.call) {
        return jsonResponse(await route.run?.(url.searchParams, env), 200, headers);
      }
      const { method, params: callParams } = route.call(params, body, url.searchParams);
      const result = await this.#legacy.run(method, callParams, env, '0.3');
      if (result.kind === 'unary') {
        const out = route.out ? route.out(result.result) : result.result;
        return jsonResponse(out, 200, headers);
      }
      return await streamResponse(
        result.events,
        merge(settings, {
          earlyErrors: 'json' as const, // REST clients read the HTTP status
          frame: (event: StreamResponse) => {
            const frame = result.frame(event) as V03StreamResult;
            return JSON.stringify(this.#bareFrames ? frame : resultToProto(frame));
          },
          errorJson: v03RestErrorBody,
          earlyError: (error: A2AError) => errorResponse(error, headers),
        }),
      );
    } catch (error) {
      env.telemetry?.fail(error);
      const a2a = toA2AError(error);
      if (a2a.type === 'Internal') settings.onError(error);
      const challenge = a2a.type === 'Unauthenticated' ? { 'www-authenticate': challenges(env.handler.agentCard) } : {};
      return errorResponse(a2a, { ...headers, ...challenge });
    }
  }
}
