#!/usr/bin/env node
// Writes packages/core/src/schemas/validators.generated.ts: the request schemas and AgentCardSchema compiled by Zod's
// own schema compiler (`compileFn` in zod/v4/core/compile.js) into standalone functions that need no Zod at run time,
// so the engine validates every request without importing Zod (docs/performance.md, "Cold start"). Zod stays the
// source of truth: a generated validator answers accept (the value Zod would return) or refuse (`INVALID`), and on a
// refusal the engine loads the Zod schema for the field-named error. packages/core/src/schemas/validators.test.ts
// checks that they agree (the adversarial corpus and fast-check inputs) and that the file is not stale.
//   node scripts/generate-validators.mjs          (run by core's `build`, before the bundle; from packages/core)
//
// Zod's compiler builds `(input) => { ... }` source with hoisted constants and evaluates it with `new Function`; this
// script captures the source and the constants (wrapping `globalThis.Function` while it compiles) and writes each
// constant as code: a primitive, RegExp or Set literally; Zod's small helpers from their source; our callbacks as
// imports from schemas/plain.ts (by identity, or by the factory tag `MADE_BY`); Zod's wrappers around a transform or
// a `.check()` as the same wrapper around the callback (found by probing); a default's value as a factory. Anything
// else (a nested Zod schema left to the runtime, an unknown helper) fails the generation.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';

/** The schemas compiled, by their export name in `@a2a/core/schemas`; each becomes `validate<Name without Schema>`. */
export const COMPILED = [
  'SendMessageRequestSchema',
  'GetTaskRequestSchema',
  'ListTasksRequestSchema',
  'CancelTaskRequestSchema',
  'SubscribeToTaskRequestSchema',
  'CreateTaskPushNotificationConfigRequestSchema',
  'GetTaskPushNotificationConfigRequestSchema',
  'ListTaskPushNotificationConfigsRequestSchema',
  'GetExtendedAgentCardRequestSchema',
  'AgentCardSchema',
];

export const validatorName = (schemaName) => `validate${schemaName.replace(/Schema$/, '')}`;

const PROBE = Symbol('probe');

/** Zod's small helpers the generated code calls, by name, each with the helpers its source calls. */
const ZOD_UTILS = {
  isObject: [],
  isPlainObject: ['isObject'],
  shallowClone: ['isPlainObject'],
  codePointLength: [],
};

/**
 * The generated module's text. `schemas`: the module namespace of src/schemas/index.ts; `plain`: of
 * src/schemas/plain.ts (the same instance the schemas use); `compileFn`: zod/v4/core/compile.js's; `util`: zod/v4/core's
 * `util` namespace; `zodVersion`: for the header.
 */
export function generateValidators({ schemas, plain, compileFn, util, zodVersion }) {
  const exportsByValue = new Map();
  for (const [name, value] of Object.entries(plain)) if (typeof value === 'function') exportsByValue.set(value, name);
  const MADE_BY = plain.MADE_BY;
  const imports = new Set();
  const utils = new Set();
  let usesTransform = false;
  let usesCheck = false;
  let usesThrowAsync = false;

  /** Our callback as code: an import by name, or a factory call. */
  function callback(fn, where) {
    const name = exportsByValue.get(fn);
    if (name) {
      imports.add(name);
      return name;
    }
    const made = fn[MADE_BY];
    if (made && exportsByValue.get(plain[made.factory]) === made.factory) {
      imports.add(made.factory);
      return `${made.factory}(${made.args.map((a) => JSON.stringify(a)).join(', ')})`;
    }
    throw new Error(`${where}: a callback that is neither an export of schemas/plain.ts nor made by one: ${fn}`);
  }

  function constant(value, where) {
    if (value === null || ['string', 'number', 'boolean', 'undefined'].includes(typeof value)) {
      return value === undefined ? 'undefined' : JSON.stringify(value);
    }
    if (value instanceof RegExp) return String(value);
    if (value instanceof Set) {
      const items = [...value];
      if (!items.every((v) => v === null || ['string', 'number', 'boolean'].includes(typeof v))) {
        throw new Error(`${where}: a Set of non-primitives`);
      }
      return `new Set(${JSON.stringify(items)})`;
    }
    if (typeof value !== 'function') throw new Error(`${where}: a constant the generator cannot write: ${value}`);
    if (value === Object.prototype.propertyIsEnumerable) return 'Object.prototype.propertyIsEnumerable';
    for (const name of Object.keys(ZOD_UTILS)) {
      if (value === util[name]) {
        addUtil(name);
        return name;
      }
    }
    const source = String(value);
    if (value.name === 'throwAsync' && /throw new \$ZodAsyncError\(\)/.test(source)) {
      usesThrowAsync = true;
      return 'throwAsync';
    }
    if (source.includes('schema._zod.def.defaultValue')) {
      // `.default(x)`: its getter, read once here (a fresh copy each call: the compiled code shallow-clones it).
      return `() => (${JSON.stringify(value())})`;
    }
    if (source.includes('fakePayload')) {
      let inner;
      try {
        value(undefined);
      } catch (error) {
        inner = error?.[PROBE];
        if (!inner) throw error;
      }
      if (!inner) throw new Error(`${where}: a wrapper whose callback was not found`);
      if (source.includes('transformFn(value, fakePayload)')) {
        usesTransform = true;
        return `transformed(${callback(inner, where)})`;
      }
      if (source.includes('checkFn(fakePayload)')) {
        usesCheck = true;
        return `checked(${callback(inner, where)})`;
      }
      throw new Error(`${where}: an unknown Zod wrapper: ${source}`);
    }
    return callback(value, where);
  }

  function addUtil(name) {
    for (const dependency of ZOD_UTILS[name]) addUtil(dependency);
    utils.add(name);
  }

  const parts = [];
  for (const schemaName of COMPILED) {
    const schema = schemas[schemaName];
    if (!schema) throw new Error(`${schemaName} is not exported by src/schemas/index.ts`);
    const restore = probeCallbacks(schema);
    let captured;
    const RealFunction = globalThis.Function;
    // biome-ignore lint/complexity/useArrowFunction: the compiler calls it with `new`
    globalThis.Function = function (...args) {
      const factory = RealFunction(...args);
      return (...values) => {
        captured = { names: args.slice(0, -1), body: args.at(-1), values };
        return factory(...values);
      };
    };
    try {
      compileFn(schema, { debug: true });
    } finally {
      globalThis.Function = RealFunction;
    }
    let constants;
    try {
      if (!captured) throw new Error(`${schemaName}: the compiler did not build a function`);
      const { names, values } = captured;
      if (names[0] !== 'INVALID') throw new Error(`${schemaName}: the first constant is not INVALID`);
      constants = names.slice(1).map((name, i) => [name, constant(values[i + 1], `${schemaName} ${name}`)]);
    } finally {
      restore();
    }
    const body = captured.body.replace(/^return /, '');
    const params = ['INVALID', ...constants.map(([name]) => name)].join(', ');
    const args = ['INVALID', ...constants.map(([, code]) => code)].join(',\n  ');
    parts.push(
      `/** \`${schemaName}\`'s check: its output, or \`INVALID\`. */\n` +
        `export const ${validatorName(schemaName)}: Validator<typeof schemas.${schemaName}> = ((${params}) =>\n` +
        `${body})(\n  ${args},\n);\n`,
    );
  }

  const header = [
    `// @generated by scripts/generate-validators.mjs from src/schemas/*.ts with Zod ${zodVersion}'s compiler: do not edit.`,
    "// Core's `build` rewrites it; src/schemas/validators.test.ts fails when it is stale and checks that every validator",
    '// accepts exactly what its Zod schema accepts, with the same output. Needs no Zod at run time.',
    '// @ts-nocheck',
    "import type { z } from 'zod';",
    "import type * as schemas from './index.js';",
    `import { ${[...imports].sort().join(', ')} } from './plain.js';`,
    '',
    "/** What a validator returns for input its schema refuses (the symbol Zod's compiled code uses). */",
    "export const INVALID: unique symbol = Symbol.for('zod.compile.invalid');",
    "/** A schema's generated check: what the schema outputs for `input`, or `INVALID`. */",
    'export type Validator<S extends z.ZodType> = (input: unknown) => z.output<S> | typeof INVALID;',
    '',
  ];
  const helpers = [];
  for (const name of Object.keys(ZOD_UTILS)) if (utils.has(name)) helpers.push(`${String(util[name])}\n`);
  if (utils.has('codePointLength')) helpers.unshift('const highSurrogate = /[\\uD800-\\uDBFF]/;\n');
  if (usesThrowAsync) {
    helpers.push("function throwAsync() {\n  throw new Error('a schema callback returned a promise');\n}\n");
  }
  if (usesTransform || usesCheck) helpers.push('function pushIssue(issue) {\n  this.issues.push(issue);\n}\n');
  if (usesTransform) {
    // Zod's wrapper around a transform (compile.js, generateTransformCheck / generatePipeCheck).
    helpers.push(
      'const transformed = (transformFn) => (value) => {\n' +
        '  const fakePayload = { value, issues: [], addIssue: pushIssue };\n' +
        '  const result = transformFn(value, fakePayload);\n' +
        '  if (result instanceof Promise) return INVALID;\n' +
        '  return fakePayload.issues.length === 0 ? result : INVALID;\n' +
        '};\n',
    );
  }
  if (usesCheck) {
    // Zod's wrapper around a `.check()` function (compile.js, generateCustomRefineCheck).
    helpers.push(
      'const checked = (checkFn) => (value) => {\n' +
        '  const fakePayload = { value, issues: [], addIssue: pushIssue };\n' +
        '  const result = checkFn(fakePayload);\n' +
        '  if (result instanceof Promise) throwAsync();\n' +
        '  return fakePayload.issues.length === 0 ? fakePayload.value : INVALID;\n' +
        '};\n',
    );
  }
  return `${header.join('\n')}\n${helpers.join('\n')}\n${parts.join('\n')}`;
}

/**
 * Replaces every transform and `.check()` function in the schema's tree with a probe that throws its original (so a
 * captured Zod wrapper, called once, tells which callback it wraps); returns the function that puts them back.
 */
function probeCallbacks(root) {
  const undo = [];
  const seen = new Set();
  const probe = (original) => {
    const fn = () => {
      throw { [PROBE]: original };
    };
    return fn;
  };
  const visit = (value) => {
    if (Array.isArray(value)) {
      for (const v of value) visit(v);
      return;
    }
    if (!value || typeof value !== 'object' || seen.has(value)) return;
    seen.add(value);
    const zod = value._zod;
    if (!zod?.def) return;
    const def = zod.def;
    if (typeof def.transform === 'function') {
      const original = def.transform;
      def.transform = probe(original);
      undo.push(() => {
        def.transform = original;
      });
    }
    if (def.check === 'custom' && !def.fn && typeof zod.check === 'function') {
      const original = zod.check;
      zod.check = probe(original);
      undo.push(() => {
        zod.check = original;
      });
    }
    for (const [key, v] of Object.entries(def)) {
      if (key === 'shape' && v && typeof v === 'object') for (const field of Object.values(v)) visit(field);
      else visit(v);
    }
  };
  visit(root);
  return () => {
    for (const u of undo.reverse()) u();
  };
}

/** Loads the schemas from the TypeScript sources (bundled with rolldown into a temporary folder) and generates. */
export async function generateFromSources(coreDir) {
  const requireFromCore = createRequire(join(coreDir, 'package.json'));
  const { rolldown } = await import(pathToFileURL(createRequire(import.meta.url).resolve('rolldown')).href);
  const zodDir = join(requireFromCore.resolve('zod/package.json'), '..');
  const out = mkdtempSync(join(coreDir, 'node_modules', '.validators-'));
  try {
    const bundle = await rolldown({
      input: { schemas: join(coreDir, 'src/schemas/index.ts'), plain: join(coreDir, 'src/schemas/plain.ts') },
      platform: 'node',
      external: [/^zod(\/|$)/],
      logLevel: 'warn',
    });
    await bundle.write({ dir: out, format: 'esm' });
    await bundle.close();
    const schemas = await import(pathToFileURL(join(out, 'schemas.js')).href);
    const plain = await import(pathToFileURL(join(out, 'plain.js')).href);
    const { compileFn } = await import(pathToFileURL(join(zodDir, 'v4/core/compile.js')).href);
    const { util } = await import(pathToFileURL(join(zodDir, 'v4/core/index.js')).href);
    const zodVersion = JSON.parse(readFileSync(join(zodDir, 'package.json'), 'utf8')).version;
    return generateValidators({ schemas, plain, compileFn, util, zodVersion });
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

export const GENERATED_PATH = 'src/schemas/validators.generated.ts';

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const coreDir = process.cwd().endsWith(join('packages', 'core'))
    ? process.cwd()
    : join(process.cwd(), 'packages/core');
  const text = await generateFromSources(coreDir);
  const target = join(coreDir, GENERATED_PATH);
  let old = '';
  try {
    old = readFileSync(target, 'utf8');
  } catch {}
  if (old !== text) writeFileSync(target, text);
  console.log(`${relative(process.cwd(), target)}: ${old === text ? 'up to date' : 'written'}`);
}
