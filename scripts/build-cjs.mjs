// The CommonJS half of a package's dual build, run after the ESM build (`tsc -p tsconfig.build.json`):
// compiles src/ again as CommonJS into dist/cjs/ (tsconfig.cjs.json), marks that folder `"type": "commonjs"` so Node
// and TypeScript read its .js and .d.ts files as CommonJS, and turns the one ESM-only expression the sources use,
// `import.meta.url`, into its CommonJS equivalent, and keeps `import('jose')` real. Used by every package's `build` script.
// Core's tsconfig.cjs.json emits declarations only: its CommonJS code is bundled by bundle-esm.mjs, in the ESM chunks.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

const out = join(process.cwd(), 'dist', 'cjs');
/** An import (type-only or not) in a declaration file of a package whose types are ES modules only. */
const ESM_TYPES = /^import (?:type )?(\{[^}]*\}|\* as \w+) from '((?:jose|@a2a-js\/sdk)(?:\/[^']*)?)';$/gm;
const tsc = createRequire(join(process.cwd(), 'package.json')).resolve('typescript/bin/tsc');
execFileSync(process.execPath, [tsc, '-p', 'tsconfig.cjs.json'], { stdio: 'inherit' });
writeFileSync(join(out, 'package.json'), '{ "type": "commonjs" }\n');
for (const entry of readdirSync(out, { recursive: true, withFileTypes: true })) {
  if (!entry.isFile()) continue;
  const file = join(entry.parentPath, entry.name);
  if (entry.name.endsWith('.d.ts')) {
    // Types from packages whose declarations are ES modules only (jose; @a2a-js/sdk, whose `types` condition comes
    // before `require`): a CommonJS declaration must import them as types, saying so (else TS1541/TS1479 in
    // `node16`/`nodenext` projects that check library types).
    const types = readFileSync(file, 'utf8');
    const marked = types
      .replace(ESM_TYPES, (_, clause, specifier) => {
        const names = clause.replace(/\btype /g, '');
        return `import type ${names} from '${specifier}' with { 'resolution-mode': 'import' };`;
      })
      .replaceAll("import('jose')", "import('jose', { with: { 'resolution-mode': 'import' } })");
    if (marked !== types) writeFileSync(file, marked);
    continue;
  }
  if (!entry.name.endsWith('.js')) continue;
  const code = readFileSync(file, 'utf8');
  // `import('jose')` stays a real dynamic import: tsc turns it into require(), which Node without require(esm)
  // (`--no-experimental-require-module`) refuses with ERR_REQUIRE_ESM, jose being ES modules only.
  const fixed = code
    .replaceAll('import.meta.url', "require('node:url').pathToFileURL(__filename).href")
    .replaceAll("Promise.resolve().then(() => __importStar(require('jose')))", "import('jose')");
  if (fixed !== code) writeFileSync(file, fixed);
}
