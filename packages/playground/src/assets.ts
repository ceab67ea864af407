import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The prebuilt page (dist/ui, made by scripts/build-ui.mjs), served from memory once read. */
export const ASSET_TYPES: Record<string, string> = {
  'index.html': 'text/html; charset=utf-8',
  'app.js': 'text/javascript; charset=utf-8',
  'app.css': 'text/css; charset=utf-8',
};

// dist/index.js, dist/cjs/index.js and src/index.ts (tests) all find the package's dist/ui.
// The CommonJS build (scripts/build-cjs.mjs) rewrites import.meta.url to the CommonJS file's URL after compiling.
function uiDirectory(): string {
  // biome-ignore lint/suspicious/noTsIgnore: import.meta is an error under module=CommonJS, which does not reach the output
  // @ts-ignore
  const here = dirname(fileURLToPath(import.meta.url));
  const candidates = [join(here, 'ui'), join(here, '..', 'ui'), join(here, '..', 'dist', 'ui')];
  const found = candidates.find((dir) => existsSync(join(dir, 'app.js')));
  if (!found) {
    throw new Error(`@a2a/playground: the page is not built (no ui/app.js next to ${here}); run its build script`);
  }
  return found;
}

export class Assets {
  private readonly dir = uiDirectory();
  private readonly cache = new Map<string, Promise<Uint8Array>>();

  read(name: string): Promise<Uint8Array> {
    let file = this.cache.get(name);
    if (!file) {
      file = readFile(join(this.dir, name));
      this.cache.set(name, file);
    }
    return file;
  }
}
