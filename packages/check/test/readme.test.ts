import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { USAGE } from '../src/cli-args.js';
import { ALL_CHECKS } from '../src/index.js';

const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');

// The README's tables are the registry's: a check added, renamed or re-levelled shows up here.
describe('README', () => {
  it('lists every check with its level, section and title', () => {
    for (const c of ALL_CHECKS) expect(readme).toContain(`| \`${c.id}\` | ${c.level} | ${c.spec} | ${c.title} |`);
    expect(readme.match(/^\| `[\w.+-]+` \|/gm)).toHaveLength(ALL_CHECKS.length);
  });

  it('shows every option of the usage text', () => {
    for (const line of USAGE.split('\n').filter((l) => l.startsWith('  --'))) expect(readme).toContain(line);
  });
});
