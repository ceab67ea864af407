/**
 * One warning per option name createA2AHandler does not know (`routs`, `maxBodySize`): TypeScript catches them,
 * JavaScript passes them silently and the default applies. Names the closest known option.
 */
export function unknownOptionWarnings(options: object, known: Readonly<Record<string, true>>): string[] {
  return unknownOptions(options, known).map(
    (o) => `createA2AHandler: unknown option '${o.name}' (ignored)${o.near ? `; did you mean '${o.near}'?` : ''}`,
  );
}

/** The option names not in `known`, each with the closest known name if there is one. */
export function unknownOptions(
  options: object,
  known: Readonly<Record<string, true>>,
): { name: string; near: string | undefined }[] {
  const names = Object.keys(known);
  return Object.keys(options)
    .filter((name) => !Object.hasOwn(known, name))
    .map((name) => ({ name, near: closest(name, names) }));
}

/** The known name nearest to `name` (case aside, Levenshtein distance), if at most half of it differs. */
function closest(name: string, known: string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Math.ceil(name.length / 2) + 1; // at most half the name changed
  for (const candidate of known) {
    const d = distance(name.toLowerCase(), candidate.toLowerCase());
    if (d < bestDistance) [best, bestDistance] = [candidate, d];
  }
  return best;
}

function distance(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++) {
      next[j] = Math.min(
        (row[j] as number) + 1,
        (next[j - 1] as number) + 1,
        (row[j - 1] as number) + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
    }
    row = next;
  }
  return row[b.length] as number;
}
