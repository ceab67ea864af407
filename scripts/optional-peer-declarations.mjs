// Marks each import of an optional peer's types in dist/**/*.d.ts `// @ts-ignore`, so that a TypeScript project that
// checks library types (`skipLibCheck` off) and did not install the peer gets no TS2307 from our declarations. Core's
// `zod` (OPTIONAL below): its runtime is bundled in (bundle-esm.mjs), the public types (`Task`, `Message`, ...) are
// plain (src/schemas/types.generated.ts), and only the schemas' own types (`@a2a/core/schemas`, `TaskSchema`: a
// `z.ZodObject<...>`) and internal helpers name Zod's; without zod those are `any`, with it they are Zod's as before
// (docs/performance.md, "Install size (issue 39)"). A declaration map beside the file (ESM) moves one line down with
// it. Run by core's `build` after build-cjs.mjs, before inline-declaration-maps.mjs.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const OPTIONAL = ['zod'];
const pkg = JSON.parse(readFileSync(join(process.cwd(), 'package.json'), 'utf8'));
const peers = OPTIONAL.filter((name) => pkg.peerDependenciesMeta?.[name]?.optional);
const imports = new RegExp(`^import (?:type )?[^;\\n]* from '(?:${peers.join('|')})(?:/[^']*)?';$`, 'gm');
const dist = join(process.cwd(), 'dist');
for (const entry of peers.length > 0 ? readdirSync(dist, { recursive: true, withFileTypes: true }) : []) {
  if (!entry.isFile() || !entry.name.endsWith('.d.ts')) continue;
  const file = join(entry.parentPath, entry.name);
  const text = readFileSync(file, 'utf8');
  let added = 0;
  const marked = text.replace(imports, (line) => {
    added++;
    return `// @ts-ignore an optional peer dependency: without it, its types are \`any\`\n${line}`;
  });
  if (added === 0) continue;
  writeFileSync(file, marked);
  const map = `${file}.map`;
  if (!existsSync(map)) continue;
  // Each added line comes before the import it marks, which tsc wrote before any declaration: every mapped line is
  // below them, so the mappings start `added` generated lines later.
  const json = JSON.parse(readFileSync(map, 'utf8'));
  json.mappings = ';'.repeat(added) + json.mappings;
  writeFileSync(map, JSON.stringify(json));
}
