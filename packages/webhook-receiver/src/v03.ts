/**
 * v0.3 push bodies (a bare, `kind`-tagged Task, Message or event) read by core's v0.3 reader (`fromV03StreamResult`,
 * the one the v0.3 wire uses), after {@link tolerant} has rewritten the spellings that real senders use but core's
 * reader refuses. A refused notification is lost (the sender retries, then gives up), so a receiver takes what it
 * can read: v0.3-era ProtoJSON enums (`TASK_STATE_CANCELLED`, `ROLE_USER`, numbers), `cancelled`, any case,
 * non-object `data`, v1.0-shaped parts, a file with both `bytes` and `uri` (bytes win). A v1.0-shaped text or data
 * part goes through the v0.3 part shape, which has no room for its `mediaType` or `filename`.
 */
import { fromV03StreamResult, toV03Part, toV03State } from '@a2a/core/internal';
import { PartSchema, RoleSchema, type StreamResponse, TaskStateEnum } from '@a2a/core/schemas';

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

export function isV03Payload(body: unknown): boolean {
  return isObject(body) && typeof body.kind === 'string';
}

/** Throws core's InvalidParams `A2AError` (with `fieldViolations`) when the body is not a v0.3 notification. */
export function fromV03(body: Json): StreamResponse {
  return fromV03StreamResult(tolerant(body));
}

/** The body with the lenient spellings rewritten to canonical v0.3; anything else is left for core to judge. */
function tolerant(body: Json): Json {
  switch (body.kind) {
    case 'task':
      return task(body);
    case 'message':
      return { ...(message(body) as Json), kind: 'message' };
    case 'status-update':
      return { ...body, status: status(body.status) };
    case 'artifact-update':
      return { ...body, artifact: artifact(body.artifact) };
    default:
      return body;
  }
}

function task(t: Json): Json {
  return {
    ...t,
    status: status(t.status),
    ...(Array.isArray(t.artifacts) && { artifacts: t.artifacts.map(artifact) }),
    ...(Array.isArray(t.history) && { history: t.history.map(message) }),
  };
}

function status(s: unknown): unknown {
  if (!isObject(s)) return s;
  const { message: m, ...rest } = s;
  // A status message that is not an object is dropped, not refused.
  return { ...rest, state: state(s.state), ...(isObject(m) && { message: message(m) }) };
}

/** Any spelling of a state that names a v1.0 state, as its v0.3 name. */
function state(value: unknown): unknown {
  const parsed = TaskStateEnum.safeParse(typeof value === 'string' ? stateName(value) : value);
  return parsed.success ? toV03State(parsed.data as Parameters<typeof toV03State>[0]) : value;
}

function stateName(state: string): string {
  if (state.startsWith('TASK_STATE_')) return state === 'TASK_STATE_CANCELLED' ? 'TASK_STATE_CANCELED' : state;
  const upper = state.toUpperCase().replace(/-/g, '_');
  return `TASK_STATE_${upper === 'CANCELLED' ? 'CANCELED' : upper}`;
}

function message(m: unknown): unknown {
  if (!isObject(m)) return m;
  const { kind: _, ...rest } = m;
  const role = RoleSchema.safeParse(m.role);
  return {
    ...rest,
    ...(role.success && { role: role.data === 'ROLE_USER' ? 'user' : 'agent' }),
    ...(Array.isArray(m.parts) && { parts: m.parts.map(part) }),
  };
}

function artifact(a: unknown): unknown {
  return isObject(a) && Array.isArray(a.parts) ? { ...a, parts: a.parts.map(part) } : a;
}

function part(p: unknown): unknown {
  if (!isObject(p)) return p;
  if (p.kind === 'text') return p;
  if (p.kind === 'data') {
    if (p.data == null || isObject(p.data)) return p;
    // v0.3 data is an object; core's reader unwraps this marked form back to the bare value.
    const metadata = isObject(p.metadata) ? p.metadata : {};
    return { ...p, data: { value: p.data }, metadata: { ...metadata, data_part_compat: true } };
  }
  if (p.kind === 'file' && isObject(p.file)) {
    const { bytes, uri, name, mimeType } = p.file;
    const file = {
      ...(bytes != null ? { bytes } : { uri }),
      ...(typeof name === 'string' && { name }),
      ...(typeof mimeType === 'string' && { mimeType }),
    };
    return { ...p, file };
  }
  // No v0.3 kind: a v1.0-shaped part (`text`, `raw`, `url` or `data`), read as one.
  const v1 = PartSchema.safeParse(p);
  return v1.success ? toV03Part(v1.data) : p;
}
