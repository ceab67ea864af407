import { isObject } from '../../is-object.js';
import type { OperationName } from '../../server/operations.js';

// The paraphrased v1.0 (seed document 002) names a few things its own way: `taskId`/`configId` for the ids, roles
// `user`/`agent`, parts `{file:{uri}, mimeType}` and `{structuredData}`, `blocking` (the opposite of v1.0's
// `returnImmediately`), `pushNotificationConfig`, push authentication `{scheme, value}`. Its params are rewritten
// into the v1.0 request here; v1.0 spellings pass through untouched, and the v1.0 schema checks the result.

type Json = Record<string, unknown>;

/** The v1.0 params for a paraphrase call of `operation`. */
export function paraphraseParams(operation: OperationName, params: unknown): unknown {
  if (!isObject(params)) return params;
  switch (operation) {
    case 'SendMessage':
    case 'SendStreamingMessage':
      return sendParams(params);
    case 'GetTask':
    case 'CancelTask':
    case 'SubscribeToTask':
      return renamed(params, 'taskId', 'id');
    case 'GetTaskPushNotificationConfig':
    case 'DeleteTaskPushNotificationConfig':
      return renamed(params, 'configId', 'id');
    case 'CreateTaskPushNotificationConfig':
      return pushConfig(params);
    default:
      return params;
  }
}

/** `from` moved to `to` unless `to` is given. */
function renamed(params: Json, from: string, to: string): Json {
  if (params[from] === undefined || params[to] !== undefined) return params;
  const { [from]: value, ...rest } = params;
  return { ...rest, [to]: value };
}

function sendParams(params: Json): Json {
  const out: Json = { ...params };
  if (isObject(params.message)) out.message = message(params.message);
  if (isObject(params.configuration)) out.configuration = configuration(params.configuration);
  return out;
}

const ROLES: Record<string, string> = { user: 'ROLE_USER', agent: 'ROLE_AGENT' };

function message(m: Json): Json {
  const out: Json = { ...m };
  if (typeof m.role === 'string' && ROLES[m.role.toLowerCase()]) out.role = ROLES[m.role.toLowerCase()];
  if (Array.isArray(m.parts)) out.parts = m.parts.map(part);
  delete out.timestamp; // the paraphrase's message timestamp has no v1.0 field
  return out;
}

function part(p: unknown): unknown {
  if (!isObject(p)) return p;
  const { file, structuredData, mimeType, ...rest } = p;
  const out: Json = { ...rest };
  if (typeof mimeType === 'string' && out.mediaType === undefined) out.mediaType = mimeType;
  if (structuredData !== undefined && out.data === undefined) out.data = structuredData;
  if (isObject(file)) {
    if (file.uri !== undefined) out.url = file.uri;
    else if (file.bytes !== undefined) out.raw = file.bytes;
    if (typeof file.name === 'string' && out.filename === undefined) out.filename = file.name;
    const fileType = file.mimeType ?? file.mediaType;
    if (typeof fileType === 'string' && out.mediaType === undefined) out.mediaType = fileType;
  } else if (file !== undefined) out.file = file; // left for the v1.0 schema to refuse
  return out;
}

function configuration(c: Json): Json {
  const { blocking, pushNotificationConfig, ...rest } = c;
  const out: Json = { ...rest };
  if (typeof blocking === 'boolean' && out.returnImmediately === undefined) out.returnImmediately = !blocking;
  if (pushNotificationConfig !== undefined && out.taskPushNotificationConfig === undefined) {
    out.taskPushNotificationConfig = isObject(pushNotificationConfig)
      ? flatConfig(pushNotificationConfig)
      : pushNotificationConfig;
  }
  return out;
}

/** `{taskId, configId, pushNotificationConfig: {url, ...}}` or the flat v1.0 config. */
function pushConfig(params: Json): Json {
  const { pushNotificationConfig, configId, ...rest } = params;
  const inner = isObject(pushNotificationConfig) ? flatConfig(pushNotificationConfig) : {};
  const out: Json = { ...inner, ...rest };
  if (typeof configId === 'string' && out.id === undefined) out.id = configId;
  return isObject(params.authentication) ? { ...out, authentication: authentication(params.authentication) } : out;
}

function flatConfig(c: Json): Json {
  return isObject(c.authentication) ? { ...c, authentication: authentication(c.authentication) } : c;
}

/** `{scheme, headerName?, value}` → v1.0 AuthenticationInfo `{scheme, credentials}`. */
function authentication(a: Json): Json {
  const { value, headerName: _headerName, ...rest } = a;
  return value !== undefined && rest.credentials === undefined ? { ...rest, credentials: value } : rest;
}
