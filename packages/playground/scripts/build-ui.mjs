// Builds the page into dist/ui: ui/main.ts bundled and minified by esbuild (no CDN, no runtime dependency), next to
// index.html and app.css. Run by the package's build script; the tests call buildUi() so they test the current sources.
import { copyFile, mkdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

export async function buildUi() {
  const out = join(root, 'dist', 'ui');
  await mkdir(out, { recursive: true });
  await build({
    entryPoints: [join(root, 'ui', 'main.ts')],
    outfile: join(out, 'app.js'),
    bundle: true,
    minify: true,
    format: 'esm',
    target: ['es2022'],
    legalComments: 'none',
    // Workspace packages (@a2a/client, @a2a/core) from their TypeScript sources: no build order, always current.
    conditions: ['@a2a/source'],
    logLevel: 'warning',
  });
  await copyFile(join(root, 'ui', 'index.html'), join(out, 'index.html'));
  await copyFile(join(root, 'ui', 'app.css'), join(out, 'app.css'));
  return out;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await buildUi();
