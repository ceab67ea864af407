import { randomUUID } from 'node:crypto';
import { isRecord } from './assertion-engine.js';

/**
 * `{{…}}` interpolation (ACTS §8, §12.2). Lookup order: a prior step's capture (`{{step.var}}`, and
 * `{{step.response}}`, the step's assertion root), the runner's own variables (its SUT URL, webhook receiver, tokens),
 * the document's `variables`, `{{env.NAME}}`, then `{{$uuid}}`. A string that is exactly one placeholder takes the
 * value as is (a captured object stays an object); inside longer text values are stringified.
 */
export interface Scope {
  captures: Map<string, Record<string, unknown>>;
  runner: Record<string, string>;
  document: Record<string, string>;
  env: Record<string, string | undefined>;
}

export class UnresolvedVariableError extends Error {}

const PLACEHOLDER = /\{\{\s*([^{}]+?)\s*\}\}/g;

export function lookup(name: string, scope: Scope, depth = 0): unknown {
  if (depth > 10) throw new UnresolvedVariableError(`variable {{${name}}} refers to itself`);
  if (name === '$uuid') return randomUUID();
  const dot = name.indexOf('.');
  if (name.startsWith('env.')) {
    const value = scope.env[name.slice(4)];
    if (value === undefined) throw new UnresolvedVariableError(`environment variable ${name.slice(4)} is not set`);
    return value;
  }
  if (dot > 0) {
    const captures = scope.captures.get(name.slice(0, dot));
    const key = name.slice(dot + 1);
    if (captures && Object.hasOwn(captures, key)) return captures[key];
    throw new UnresolvedVariableError(
      captures
        ? `step "${name.slice(0, dot)}" captured no "${key}"`
        : `no earlier step "${name.slice(0, dot)}" for {{${name}}}`,
    );
  }
  const raw = Object.hasOwn(scope.runner, name) ? scope.runner[name] : scope.document[name];
  if (raw === undefined) throw new UnresolvedVariableError(`variable {{${name}}} is not defined`);
  return interpolateString(raw, scope, depth + 1);
}

function interpolateString(text: string, scope: Scope, depth = 0): unknown {
  const whole = /^\{\{\s*([^{}]+?)\s*\}\}$/.exec(text);
  if (whole?.[1]) return lookup(whole[1], scope, depth);
  return text.replace(PLACEHOLDER, (_, name: string) => {
    const value = lookup(name, scope, depth);
    return typeof value === 'string' ? value : JSON.stringify(value);
  });
}

/** A deep copy of `value` with every placeholder resolved. Throws UnresolvedVariableError. */
export function interpolate(value: unknown, scope: Scope): unknown {
  if (typeof value === 'string') return interpolateString(value, scope);
  if (Array.isArray(value)) return value.map((v) => interpolate(v, scope));
  if (isRecord(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, interpolate(v, scope)]));
  return value;
}
