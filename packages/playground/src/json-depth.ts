/** Deepest nesting the playground reads in a card, a JWKS or its own API's JSON; real cards stay well under it. */
export const MAX_JSON_DEPTH = 64;

/**
 * Whether a parsed JSON value nests arrays and objects deeper than `max`. Iterative: validating or serialising a
 * deeper value recurses once per level and can overflow the stack, so it is refused before either runs.
 */
export function nestedDeeperThan(value: unknown, max: number = MAX_JSON_DEPTH): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  for (let next = stack.pop(); next; next = stack.pop()) {
    const [v, depth] = next;
    if (typeof v !== 'object' || v === null) continue;
    if (depth >= max) return true;
    for (const child of Array.isArray(v) ? v : Object.values(v)) stack.push([child, depth + 1]);
  }
  return false;
}
