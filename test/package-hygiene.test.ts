// What the npm page and the tarball of every published package show: the license file, where the source lives, where
// to report bugs. (That the tarballs really carry LICENSE is checked on the installed packages in module-modes.test.ts.)
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { publishedPackages, ROOT } from '../scripts/pack-packages.mjs';

const REPO = 'https://github.com/a2a-plugins/a2a-plugins';
const license = readFileSync(join(ROOT, 'LICENSE'), 'utf8');

describe('package hygiene', () => {
  it('the root LICENSE is the Apache-2.0 text the packages declare', () => {
    expect(license).toContain('Apache License');
    expect(license).toContain('Version 2.0, January 2004');
  });

  it.each(publishedPackages())('packages/%s: LICENSE, repository (with directory), homepage, bugs', (dir) => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'packages', dir, 'package.json'), 'utf8'));
    expect(pkg.license).toBe('Apache-2.0');
    expect(existsSync(join(ROOT, 'packages', dir, 'LICENSE'))).toBe(true);
    expect(readFileSync(join(ROOT, 'packages', dir, 'LICENSE'), 'utf8')).toBe(license);
    expect(pkg.repository).toEqual({ type: 'git', url: `git+${REPO}.git`, directory: `packages/${dir}` });
    expect(pkg.homepage).toBe(`${REPO}/tree/main/packages/${dir}#readme`);
    expect(pkg.bugs).toEqual({ url: `${REPO}/issues` });
  });

  it("core's telemetry scope version is the package's version (bump src/telemetry/scope.ts with package.json)", () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'packages', 'core', 'package.json'), 'utf8'));
    const scope = readFileSync(join(ROOT, 'packages', 'core', 'src', 'telemetry', 'scope.ts'), 'utf8');
    expect(/SCOPE_VERSION = '([^']+)'/.exec(scope)?.[1]).toBe(pkg.version);
  });
});
