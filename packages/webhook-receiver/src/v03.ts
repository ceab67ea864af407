/**
 * v0.3 push bodies (a bare, `kind`-tagged Task, Message or event with lowercase states and `kind`-tagged parts) turned
 * into the v1.0 StreamResponse input shape; the v1.0 schema validates the result.
 */
type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

export function isV03Payload(body: unknown): boolean {
  return isObject(body) && typeof body.kind === 'string';
}

export function fromV03(body: Json): Json {
  switch (body.kind) {
    case 'task':
      return { task: task(body) };
    case 'message':
      return { message: message(body) };
    case 'status-update':
      return {
        statusUpdate: pick({ ...body, status: status(body.status) }, ['taskId', 'contextId', 'status', 'metadata']),
      };
    case 'artifact-update':
      return {
        artifactUpdate: pick({ ...body, artifact: artifact(body.artifact) }, [
          'taskId',
          'contextId',
          'artifact',
          'append',
          'lastChunk',
          'metadata',
        ]),
      };
    default:
      throw new Error(`unknown v0.3 kind ${String(body.kind)}`);
  }
}

function task(t: Json): Json {
  return {
    ...pick(t, ['id', 'contextId', 'metadata']),
    status: status(t.status),
    ...(Array.isArray(t.artifacts) && { artifacts: t.artifacts.map(artifact) }),
    ...(Array.isArray(t.history) && { history: t.history.map(message) }),
  };
}

function status(s: unknown): unknown {
  if (!isObject(s)) return s;
  const state = typeof s.state === 'string' ? stateName(s.state) : s.state;
  return { ...pick(s, ['timestamp']), state, ...(isObject(s.message) && { message: message(s.message) }) };
}

export function stateName(state: string): string {
  if (state.startsWith('TASK_STATE_')) return state === 'TASK_STATE_CANCELLED' ? 'TASK_STATE_CANCELED' : state;
  const upper = state.toUpperCase().replace(/-/g, '_');
  return `TASK_STATE_${upper === 'CANCELLED' ? 'CANCELED' : upper}`;
}

function message(m: unknown): unknown {
  if (!isObject(m)) return m;
  const role = m.role === 'user' ? 'ROLE_USER' : m.role === 'agent' ? 'ROLE_AGENT' : m.role;
  return {
    ...pick(m, ['messageId', 'contextId', 'taskId', 'metadata', 'extensions', 'referenceTaskIds']),
    role,
    parts: Array.isArray(m.parts) ? m.parts.map(part) : m.parts,
  };
}

function artifact(a: unknown): unknown {
  if (!isObject(a)) return a;
  return {
    ...pick(a, ['artifactId', 'name', 'description', 'metadata', 'extensions']),
    parts: Array.isArray(a.parts) ? a.parts.map(part) : a.parts,
  };
}

function part(p: unknown): unknown {
  if (!isObject(p)) return p;
  const base = pick(p, ['metadata']);
  if (p.kind === 'text') return { ...base, text: p.text };
  if (p.kind === 'data') return { ...base, data: p.data };
  if (p.kind === 'file' && isObject(p.file)) {
    const f = p.file;
    const meta = {
      ...(typeof f.name === 'string' && { filename: f.name }),
      ...(typeof f.mimeType === 'string' && { mediaType: f.mimeType }),
    };
    return f.bytes !== undefined ? { ...base, ...meta, raw: f.bytes } : { ...base, ...meta, url: f.uri };
  }
  return p;
}

function pick(source: Json, keys: string[]): Json {
  const out: Json = {};
  for (const key of keys) if (source[key] !== undefined) out[key] = source[key];
  return out;
}
