import canonicalizeModule from 'canonicalize';
import { isObject } from '../is-object.js';
import { AgentCardSchema } from '../schemas/agent-card.js';

// The agent card's canonical form (spec §8.4): what a card signature covers, shared by signing and verifying.

// `canonicalize` is CommonJS typed as an ES default export: under NodeNext the callable is either the module itself
// (Node's CJS interop) or its `default` member (bundlers).
type Canonicalize = (input: unknown) => string | undefined;
export const canonicalize: Canonicalize =
  typeof canonicalizeModule === 'function'
    ? (canonicalizeModule as Canonicalize)
    : (canonicalizeModule as unknown as { default: Canonicalize }).default;

/** The capabilities' proto `optional bool`s: an explicit `false` is kept (field presence). */
export const EXPLICIT_PRESENCE = new Set(['streaming', 'pushNotifications', 'extendedAgentCard']);

/** The bits of a zod schema's definition the projection reads (zod 4 keeps them under `_zod.def`). */
interface SchemaNode {
  _zod: {
    def: {
      type: string;
      out?: SchemaNode;
      innerType?: SchemaNode;
      shape?: Record<string, SchemaNode>;
      element?: SchemaNode;
      valueType?: SchemaNode;
    };
  };
}

const snakeCase = (name: string): string => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/** Recursively drops empty strings, `null`, empty arrays and empty objects; `undefined` when nothing is left. */
function withoutEmpty(value: unknown): unknown {
  if (value === '' || value === null || value === undefined) return undefined;
  if (Array.isArray(value)) {
    const list = value.map(withoutEmpty).filter((v) => v !== undefined);
    return list.length > 0 ? list : undefined;
  }
  if (!isObject(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    const kept = withoutEmpty(v);
    if (kept !== undefined) out[k] = kept;
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

/**
 * The value as its v1.0 schema reads it (ProtoJSON, like the SDKs' proto round trip): unknown fields dropped,
 * snake_case names accepted, proto defaults (empty strings, `false`, 0, empty lists/maps/messages) omitted except
 * the explicit-presence booleans; `google.protobuf.Struct` contents only lose their empty values.
 */
function project(schema: SchemaNode, value: unknown, key?: string): unknown {
  const def = schema._zod.def;
  switch (def.type) {
    case 'pipe':
      return def.out ? project(def.out, value, key) : withoutEmpty(value);
    case 'optional':
    case 'nullable':
    case 'default':
      return def.innerType ? project(def.innerType, value, key) : withoutEmpty(value);
    case 'object': {
      if (!isObject(value) || !def.shape) return withoutEmpty(value);
      const out: Record<string, unknown> = {};
      for (const [name, field] of Object.entries(def.shape)) {
        const v = value[name] ?? value[snakeCase(name)];
        if (v === undefined || v === null) continue;
        const kept = project(field, v, name);
        if (kept !== undefined) out[name] = kept;
      }
      return Object.keys(out).length > 0 ? out : undefined;
    }
    case 'array': {
      if (!Array.isArray(value) || !def.element) return withoutEmpty(value);
      const element = def.element;
      const list = value.map((v) => project(element, v)).filter((v) => v !== undefined);
      return list.length > 0 ? list : undefined;
    }
    case 'record': {
      if (!isObject(value) || !def.valueType) return withoutEmpty(value);
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(value)) {
        const kept = project(def.valueType, v);
        if (kept !== undefined) out[k] = kept;
      }
      return Object.keys(out).length > 0 ? out : undefined;
    }
    case 'unknown':
    case 'any':
      return withoutEmpty(value); // Struct contents: JSON, not proto fields
    default: {
      if ((value === false || value === 0) && !(key && EXPLICIT_PRESENCE.has(key))) return undefined;
      return withoutEmpty(value);
    }
  }
}

/**
 * The exact bytes that are signed: the card read as a v1.0 AgentCard, minus `signatures`, minus proto default values
 * (empty strings, `false` and 0 outside the capabilities' explicit-presence booleans, then every empty string, array
 * and object, required fields included), JCS-serialised. This is the official SDKs' definition; fields outside the
 * v1.0 card (e.g. the v0.3 duplicates of the superset card) are not covered.
 */
export function canonicalAgentCard(card: object): string {
  const { signatures: _excluded, ...rest } = card as Record<string, unknown>;
  const text = canonicalize(project(AgentCardSchema as unknown as SchemaNode, rest) ?? {});
  if (text === undefined) throw new Error('The card cannot be canonicalised');
  return text;
}
