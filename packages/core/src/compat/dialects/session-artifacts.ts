import { isObject } from '../../is-object.js';
import type { Part } from '../../schemas/message.js';
import type { Artifact } from '../../schemas/task.js';

// The sessions dialect's artifacts `{id, type, data, name?, description?}` (seed document 004) and A2A parts:
// `base64:` data → a raw part, type `url/reference` → a url part, JSON values (or a JSON type) → a data part, other
// strings → a text part of that media type. The artifact's id (and description) ride in the part's metadata, so
// the artifact reads back as it was sent.

export interface SessionArtifact {
  id: string;
  type: string;
  data: unknown;
  name?: string;
  description?: string;
}

export const ARTIFACT_KEY = 'a2a.sessions.artifact';
const BASE64 = 'base64:';
const URL_REFERENCE = 'url/reference';

export function artifactToPart(artifact: SessionArtifact): Part {
  const { id, type, data, name, description } = artifact;
  const metadata = { [ARTIFACT_KEY]: { id, ...(description !== undefined && { description }) } };
  const filename = name === undefined ? {} : { filename: name };
  if (typeof data === 'string' && type === URL_REFERENCE) return { url: data, ...filename, metadata };
  if (typeof data === 'string' && data.startsWith(BASE64)) {
    return { raw: data.slice(BASE64.length), mediaType: type, ...filename, metadata };
  }
  if (typeof data === 'string' && !/json/i.test(type)) return { text: data, mediaType: type, ...filename, metadata };
  return { data: data as Part['data'], mediaType: type, ...filename, metadata };
}

/** Whether a part came from (or stands for) an artifact rather than the message's text. */
export const isArtifactPart = (part: Part): boolean =>
  part.text === undefined || isObject(part.metadata?.[ARTIFACT_KEY]);

export function partToArtifact(part: Part, fallbackId: string, fallbackName?: string): SessionArtifact {
  const own = isObject(part.metadata?.[ARTIFACT_KEY]) ? (part.metadata[ARTIFACT_KEY] as Record<string, unknown>) : {};
  const id = typeof own.id === 'string' ? own.id : fallbackId;
  const name = part.filename ?? fallbackName;
  const extra = {
    ...(name !== undefined && { name }),
    ...(typeof own.description === 'string' && { description: own.description }),
  };
  if (part.url !== undefined) return { id, type: URL_REFERENCE, data: part.url, ...extra };
  if (part.raw !== undefined) {
    return { id, type: part.mediaType ?? 'application/octet-stream', data: `${BASE64}${part.raw}`, ...extra };
  }
  if (part.text !== undefined) return { id, type: part.mediaType ?? 'text/plain', data: part.text, ...extra };
  return { id, type: part.mediaType ?? 'application/json', data: part.data, ...extra };
}

/** A task's artifacts as session artifacts: one per part (`artifactId`, or `artifactId#n` when it has several). */
export function taskArtifacts(artifacts: readonly Artifact[] | undefined): SessionArtifact[] {
  const out: SessionArtifact[] = [];
  for (const artifact of artifacts ?? []) {
    artifact.parts.forEach((part, i) => {
      const id = artifact.parts.length === 1 ? artifact.artifactId : `${artifact.artifactId}#${i + 1}`;
      const converted = partToArtifact(part, id, artifact.name);
      if (artifact.description !== undefined && converted.description === undefined) {
        converted.description = artifact.description;
      }
      out.push(converted);
    });
  }
  return out;
}
