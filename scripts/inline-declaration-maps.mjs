// Moves each declaration map tsc wrote (dist/**/*.d.ts.map, `declarationMap`) into its declaration file as a base64
// `data:` URL, the form TypeScript's language service reads (`application/json;charset=utf-8;base64`), so that
// go-to-definition still opens the shipped src/ file. Why: a map is ~850 bytes, and each file of an install takes at
// least a disk block (4 kB): core's 151 map files took 0.6 MB on disk for 0.13 MB of content (docs/performance.md,
// "Install size"). Run by the packages' `build` scripts after `tsc -p tsconfig.build.json`.
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';

const dist = join(process.cwd(), 'dist');
for (const entry of readdirSync(dist, { recursive: true, withFileTypes: true })) {
  if (!entry.isFile() || !entry.name.endsWith('.d.ts.map')) continue;
  const map = join(entry.parentPath, entry.name);
  const declaration = map.slice(0, -'.map'.length);
  const comment = `//# sourceMappingURL=${basename(map)}`;
  const text = readFileSync(declaration, 'utf8');
  if (!text.includes(comment)) throw new Error(`${declaration} does not end with ${comment}`);
  const url = `data:application/json;charset=utf-8;base64,${readFileSync(map).toString('base64')}`;
  writeFileSync(declaration, text.replace(comment, `//# sourceMappingURL=${url}`));
  rmSync(map);
}
