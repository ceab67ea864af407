import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { clientsOf, programsOf, scanReadme, wrapForCommonJS } from '../src/examples.js';
import { packageOf, runsInVariant, VARIANTS } from '../src/projects.js';

// The marker convention of docs/readme-examples.md, on small READMEs (the packed-tarball run is in
// readme-examples.test.ts).
const root = mkdtempSync(join(tmpdir(), 'a2a-readme-scan-'));
const readme = (name: string, text: string) => {
  writeFileSync(join(root, name), text);
  return scanReadme(root, join(root, name));
};

describe('README example markers', () => {
  it('takes marked blocks verbatim with their README line, and composes programs with the root modules', () => {
    const top = readme('README.md', '# x\n\n<!-- example file=agent.ts -->\n```ts\nexport const a = 1;\n```\n');
    const pkg = readme(
      'PKG.md',
      [
        'text',
        '<!-- example file=server.ts run=express,koa3 -->',
        '```ts',
        "import { a } from './agent.js';",
        'app.listen(process.env.PORT ?? 3000);',
        '```',
        '',
        '```ts',
        'app.use(a2aKoa(a2a)); // a fragment: not run',
        '```',
      ].join('\n'),
    );
    expect(top.problems).toEqual([]);
    expect(pkg.problems).toEqual([]);
    expect(pkg.blocks).toEqual([
      {
        readme: 'PKG.md',
        line: 4,
        file: 'server.ts',
        run: ['express', 'koa3'],
        code: "import { a } from './agent.js';\napp.listen(process.env.PORT ?? 3000);\n",
      },
    ]);
    const [program, ...rest] = programsOf([...top.blocks, ...pkg.blocks], 'README.md');
    expect(rest).toEqual([]);
    expect(program?.dir).toBe('PKG-md--server');
    expect(program?.files.map((f) => `${f.readme}:${f.file}`)).toEqual(['README.md:agent.ts', 'PKG.md:server.ts']);
  });

  it('fails an unmarked server example and a marker without a block or a file name', () => {
    const scan = readme(
      'BAD.md',
      [
        '```ts',
        'app.listen(3000);',
        '```',
        '<!-- example file=server.ts run=hapi -->',
        'prose instead of a block',
        '<!-- example run=hapi -->',
        '```ts',
        'await server.start();',
        '```',
      ].join('\n'),
    );
    expect(scan.blocks).toEqual([]);
    expect(scan.problems).toEqual([
      expect.stringMatching(/^BAD\.md:2: this block starts a server but has no <!-- example/),
      'BAD.md:4: an example marker must be followed by a code block',
      'BAD.md:6: an example marker needs file=<name>.ts',
    ]);
  });

  it('a client= block is a client program, not a module the servers import', () => {
    const scan = readme(
      'CLIENT.md',
      [
        '<!-- example file=client.ts client=express5 -->',
        '```ts',
        "await fetch(process.env.AGENT_URL ?? '');",
        '```',
      ].join('\n'),
    );
    expect(scan.blocks[0]).toMatchObject({ file: 'client.ts', run: [], client: ['express5'] });
    expect(programsOf(scan.blocks)).toEqual([]);
    expect(clientsOf(scan.blocks).map((p) => p.dir)).toEqual(['CLIENT-md--client']);
  });

  it('commonjs= keeps a block out of CommonJS twins compiled with another module setting', () => {
    const scan = readme(
      'COMPAT.md',
      ['<!-- example file=server.ts run=express commonjs=commonjs -->', '```ts', 'app.listen(1);', '```'].join('\n'),
    );
    const [block] = scan.blocks;
    if (!block) throw new Error('no block');
    expect(block).toMatchObject({ run: ['express'], commonjs: ['commonjs'] });
    const runs = VARIANTS.filter((v) => runsInVariant(block, v)).map((v) => v.name);
    expect(runs).toEqual(['express5', 'express4', 'express4-cjs']);
    const { commonjs: _all, ...plain } = block;
    expect(VARIANTS.filter((v) => runsInVariant(plain, v)).map((v) => v.name)).toEqual([
      'express5',
      'express5-cjs',
      'express4',
      'express4-cjs',
    ]);
  });

  it('names the package of an import specifier', () => {
    expect(packageOf('@a2a-js/sdk/server/express')).toBe('@a2a-js/sdk');
    expect(packageOf('@a2a/core')).toBe('@a2a/core');
    expect(packageOf('express')).toBe('express');
    expect(packageOf('hono/jwt')).toBe('hono');
  });

  it('wraps top-level await for CommonJS after the imports, keeping every line; leaves other code alone', () => {
    const code = [
      "import Fastify from 'fastify';",
      "import { agentCard } from './agent.js'; // your card",
      '',
      '// a comment',
      'const app = Fastify();',
      'for await (const x of app.stream()) console.log(x);',
      'await app.listen({ port: 3000 });',
      '',
    ].join('\n');
    const wrapped = wrapForCommonJS(code);
    const lines = wrapped.split('\n');
    expect(lines[0]).toBe("import Fastify from 'fastify';");
    expect(lines[1]).toBe("import { agentCard } from './agent.js'; async function main() { // your card");
    expect(lines.slice(2, 7)).toEqual(code.split('\n').slice(2, 7));
    expect(lines.slice(7)).toEqual([
      '}',
      'main().catch((err) => {',
      '  console.error(err);',
      '  process.exit(1);',
      '});',
      '',
    ]);
    // Awaits inside functions are not top-level: a module is left as is.
    const module =
      "import x from 'y';\nexport const f = async () => { await x; };\nclass C { async m() { await x; } }\n";
    expect(wrapForCommonJS(module)).toBe(module);
  });
});
