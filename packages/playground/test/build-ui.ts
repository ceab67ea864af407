import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** Builds the page from the current ui/ sources into dist/ui (esbuild, well under a second), as the build script does. */
export function buildUi(): void {
  execFileSync(process.execPath, [fileURLToPath(new URL('../scripts/build-ui.mjs', import.meta.url))], {
    stdio: 'inherit',
  });
}
