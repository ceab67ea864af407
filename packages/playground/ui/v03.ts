import type { Message as CoreMessage } from '@a2a/core';
import { toV03Message as coreToV03Message } from '@a2a/core/internal';
import type { Artifact, Message, Part, StreamResult, Task, TaskStatus } from './types.js';

// A2A v0.3 ↔ the v1.0 shapes the page uses: `kind`-tagged results and parts, lower-case states and roles.
//
// Why the page has its own reader and does not use core's (`fromV03StreamResult`, `fromV03Task`, also behind
// `@a2a/client/v03`): core's reader validates every result with its zod schemas, and zod does not tree-shake out of
// a browser bundle. Measured with scripts/build-ui.mjs (esbuild, minified): the page is 47.2 kB (16.2 kB gzip) today,
// 511 kB (113 kB gzip) with core's reader, 517 kB (115 kB gzip) on `@a2a/client/v03`; zod alone is 457 kB of it.
// Core's translators without the validation are private to core/src/compat/v03-translate.ts (no zod-free entry).
// This reader is also forgiving on purpose: a debugging page shows what a faulty agent sent (the raw frame is in the
// wire log) instead of refusing it, so it never throws.

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

export const v03State = (state: unknown): string =>
  typeof state === 'string' ? `TASK_STATE_${state.toUpperCase().replaceAll('-', '_')}` : 'TASK_STATE_UNSPECIFIED';

/**
 * The page's message in v0.3 form through core's writer, which carries no zod (about 1 kB in the page): a data part
 * that is not a JSON object goes as `{ value }` marked `data_part_compat`, as v0.3 allows objects only.
 */
export const toV03Message = (message: Message): Json => coreToV03Message(message as CoreMessage) as unknown as Json;

function part(p: unknown): Part {
  if (!isObject(p)) return { text: String(p) };
  if (p.kind === 'data') return { data: p.data };
  if (p.kind === 'file' && isObject(p.file)) {
    const f = p.file;
    return {
      ...(typeof f.bytes === 'string' ? { raw: f.bytes } : { url: String(f.uri ?? '') }),
      ...(typeof f.name === 'string' ? { filename: f.name } : {}),
      ...(typeof f.mimeType === 'string' ? { mediaType: f.mimeType } : {}),
    };
  }
  return { text: String(p.text ?? '') };
}

const parts = (v: unknown): Part[] => (Array.isArray(v) ? v.map(part) : []);

function message(m: Json): Message {
  return {
    messageId: String(m.messageId ?? ''),
    role: m.role === 'agent' ? 'ROLE_AGENT' : 'ROLE_USER',
    parts: parts(m.parts),
    ...(typeof m.contextId === 'string' ? { contextId: m.contextId } : {}),
    ...(typeof m.taskId === 'string' ? { taskId: m.taskId } : {}),
  };
}

function status(s: unknown): TaskStatus {
  const st = isObject(s) ? s : {};
  return {
    state: v03State(st.state),
    ...(isObject(st.message) ? { message: message(st.message) } : {}),
    ...(typeof st.timestamp === 'string' ? { timestamp: st.timestamp } : {}),
  };
}

const artifact = (a: unknown): Artifact => {
  const art = isObject(a) ? a : {};
  return {
    artifactId: String(art.artifactId ?? ''),
    ...(typeof art.name === 'string' ? { name: art.name } : {}),
    parts: parts(art.parts),
  };
};

export function fromV03Task(t: unknown): Task {
  const task = isObject(t) ? t : {};
  return {
    id: String(task.id ?? ''),
    contextId: String(task.contextId ?? ''),
    status: status(task.status),
    ...(Array.isArray(task.artifacts) ? { artifacts: task.artifacts.map(artifact) } : {}),
    ...(Array.isArray(task.history) ? { history: task.history.filter(isObject).map(message) } : {}),
  };
}

/** A v0.3 `message/send` result or `message/stream` event. */
export function fromV03Result(r: unknown): StreamResult {
  const result = isObject(r) ? r : {};
  switch (result.kind) {
    case 'message':
      return { message: message(result) };
    case 'status-update':
      return {
        statusUpdate: {
          taskId: String(result.taskId ?? ''),
          contextId: String(result.contextId ?? ''),
          status: status(result.status),
        },
      };
    case 'artifact-update':
      return {
        artifactUpdate: {
          taskId: String(result.taskId ?? ''),
          contextId: String(result.contextId ?? ''),
          artifact: artifact(result.artifact),
          ...(typeof result.append === 'boolean' ? { append: result.append } : {}),
          ...(typeof result.lastChunk === 'boolean' ? { lastChunk: result.lastChunk } : {}),
        },
      };
    default:
      return { task: fromV03Task(result) };
  }
}
