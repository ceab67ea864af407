import { z } from 'zod';
import { boundedId, requiredId } from './id.js';
import { asIs, isRealRole, partHasOneContent } from './plain.js';
import { bytes, protoEnum, protoMessage, struct } from './proto-json.js';
import type { Message, Part } from './types.generated.js';

// The protocol types, plain (generated from these schemas: scripts/generate-types.mjs).
export type { Message, Part };

export const ROLES = ['ROLE_UNSPECIFIED', 'ROLE_USER', 'ROLE_AGENT'] as const;
export type Role = Exclude<(typeof ROLES)[number], 'ROLE_UNSPECIFIED'>;
export const RoleSchema = protoEnum(ROLES)
  .refine(isRealRole, { message: 'must be ROLE_USER or ROLE_AGENT' })
  .transform(asIs as (r: string) => Role);

/** Part: exactly one of text | raw | url | data, plus optional metadata, filename and mediaType. */
export const PartSchema = protoMessage({
  text: z.string().optional(),
  raw: bytes.optional(),
  url: z.string().min(1).optional(),
  data: z.unknown().optional(),
  metadata: struct.optional(),
  filename: z.string().optional(),
  mediaType: z.string().optional(),
}).check(partHasOneContent);

export const MessageSchema = protoMessage({
  messageId: requiredId,
  contextId: requiredId.optional(),
  taskId: requiredId.optional(),
  role: RoleSchema,
  parts: z.array(PartSchema).min(1),
  metadata: struct.optional(),
  extensions: z.array(z.string()).optional(),
  referenceTaskIds: z.array(boundedId).optional(),
});
