// The validators generated from the Zod schemas (src/schemas/validators.generated.ts, scripts/generate-validators.mjs)
// against the schemas themselves: over the adversarial corpus's inputs (@a2a/adapter-testsuite: every operation's
// params with one field replaced by junk, under its camelCase or snake_case name, as JSON-RPC params and as REST query
// strings) and over generated near-valid inputs (fast-check, fixed seed), each validator accepts exactly what its
// schema accepts, with the same output, and the engine's params check refuses with the same field-named error as the
// schema. Also: the generated file is what the generator writes from the current sources (not stale).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { junk, setPath, TEMPLATES, toJson } from '@a2a/adapter-testsuite';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { COMPILED, GENERATED_PATH, generateValidators, validatorName } from '../../../scripts/generate-validators.mjs';
import { fromZodError, isA2AError } from '../src/errors.js';
import * as schemas from '../src/schemas/index.js';
import * as plain from '../src/schemas/plain.js';
import * as generated from '../src/schemas/validators.generated.js';
import { checkParams, parseParams } from '../src/server/operation-params.js';
import { OPERATIONS, type Operation, type OperationName } from '../src/server/operations.js';

const CORE = join(import.meta.dirname, '..');
const SEED = 20261128;
const RUNS = Number(process.env.A2A_VALIDATOR_RUNS ?? 400);
const KNOWN = { taskId: 'task-1', configId: 'config-1' };

type Validate = (input: unknown) => unknown;
const validators = generated as unknown as Record<string, Validate>;
const schemaOf = (name: string) => (schemas as unknown as Record<string, z.ZodType>)[name] as z.ZodType;

/** The same JSON value twice, fresh each time (neither side can see what the other did to its input). */
const twice = (json: string): [unknown, unknown] => [JSON.parse(json), JSON.parse(json)];

/** One input through the validator and the schema: they must agree on accept/refuse and, when both accept, the output. */
function agree(schemaName: string, json: string): boolean {
  const [a, b] = twice(json);
  const out = (validators[validatorName(schemaName)] as Validate)(a);
  const parsed = schemaOf(schemaName).safeParse(b);
  expect({ json, accepted: out !== generated.INVALID }).toEqual({ json, accepted: parsed.success });
  if (parsed.success) expect(JSON.stringify(out)).toBe(JSON.stringify(parsed.data));
  return parsed.success;
}

/** What the engine answered before the validators: checkParams, the shortcut, then the schema (its Zod error). */
function zodAnswer(operation: Operation, schemaName: string, params: unknown): { data: unknown } | { error: string } {
  let checked: unknown;
  try {
    checked = checkParams(params);
  } catch (e) {
    return { error: (e as Error).message };
  }
  const simple = operation.shortcut?.(checked);
  if (simple) return { data: simple };
  const parsed = schemaOf(schemaName).safeParse(checked);
  if (parsed.success) return { data: parsed.data };
  const error = fromZodError(parsed.error);
  return { error: JSON.stringify([error.message, error.toStatusBody()]) };
}

/** The engine's params check now: the same data, or the same InvalidParams error (message and field violations). */
async function engineAgrees(name: OperationName, json: string): Promise<boolean> {
  const operation: Operation = OPERATIONS[name];
  const [a, b] = twice(json);
  const expected = zodAnswer(operation, operation.schema, b);
  let actual: { data: unknown } | { error: string };
  try {
    const checked = parseParams(operation, a);
    actual = { data: checked instanceof Promise ? await checked : checked };
  } catch (e) {
    if (!isA2AError(e)) throw e;
    actual = {
      error: e.message.startsWith('Invalid params: params') ? e.message : JSON.stringify([e.message, e.toStatusBody()]),
    };
  }
  if ('error' in expected && expected.error.startsWith('Invalid params: params')) {
    expect(actual).toEqual(expected);
  } else {
    expect({ json, ...normalize(actual) }).toEqual({ json, ...normalize(expected) });
  }
  return 'data' in expected;
}
const normalize = (answer: { data: unknown } | { error: string }) =>
  'data' in answer ? { data: JSON.stringify(answer.data) } : answer;

/** The REST form of params: what a query string gives (every top-level value a string). */
const asQuery = (params: Record<string, unknown>) =>
  Object.fromEntries(
    Object.entries(params).map(([k, v]) => [k, typeof v === 'string' ? v : toJson(v).replace(/^"|"$/g, '')]),
  );

/** The adversarial corpus's field cases (fieldCases in adversarial-cases.ts), as params: [operation, JSON]. */
const corpus = fc
  .tuple(fc.constantFrom(...TEMPLATES), fc.nat(), fc.oneof(junk, fc.constant(undefined)), fc.boolean(), fc.boolean())
  .map(([template, n, value, snake, query]) => {
    const field = template.fields[n % template.fields.length] as string;
    const name = snake ? field.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`) : field;
    const base = template.params(KNOWN);
    const params =
      snake && name !== field ? setPath(setPath(base, field, undefined), name, value) : setPath(base, name, value);
    return [template.method as OperationName, toJson(query ? asQuery(params) : params)] as const;
  });

/** Values the schemas accept somewhere: proto-JSON's alternatives (numbers for enums, strings for ints and bools). */
const plausible = fc.constantFrom(
  null,
  undefined,
  '',
  'x',
  0,
  1,
  2,
  -1,
  '1',
  '0',
  '-1',
  '100',
  101,
  'true',
  'false',
  true,
  false,
  'ROLE_AGENT',
  'ROLE_UNSPECIFIED',
  'TASK_STATE_WORKING',
  'TASK_STATE_UNSPECIFIED',
  'UNRECOGNIZED',
  '2026-01-01T00:00:00.123456+0200',
  '2026-01-01t00:00:00Z',
  '2026-02-30T00:00:00Z',
  'aGVsbG8',
  'aGVsbG8=',
  'a-_b',
  'abcde',
  'https://x.test/hook',
  'HTTP://x.test',
  'ftp://x.test',
  'x'.repeat(1024),
  'x'.repeat(1025),
  `${'\u{1F600}'.repeat(600)}`,
  2147483647,
  '2147483648',
  [],
  {},
  ['a'],
  { text: 'a' },
  { raw: 'aGk' },
  { url: 'https://x.test/f' },
  { data: { a: 1 } },
  { text: 'a', url: 'u' },
  [{ text: 'a' }],
  [{ text: 'a', metadata: null }],
  { scheme: 'Bearer' },
);

/** Near-valid params: a template's params with one to four fields set to plausible values (or renamed snake_case). */
const nearValid = fc
  .tuple(
    fc.constantFrom(...TEMPLATES),
    fc.array(fc.tuple(fc.nat(), plausible, fc.boolean()), { minLength: 1, maxLength: 4 }),
    fc.boolean(),
  )
  .map(([template, changes, query]) => {
    let params = template.params(KNOWN);
    for (const [n, value, snake] of changes) {
      const field = template.fields[n % template.fields.length] as string;
      const name = snake ? field.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`) : field;
      params =
        snake && name !== field
          ? setPath(setPath(params, field, undefined), name, value)
          : setPath(params, name, value);
    }
    return [template.method as OperationName, toJson(query ? asQuery(params) : params)] as const;
  });

const CARD = {
  name: 'agent',
  description: 'd',
  supportedInterfaces: [{ url: 'http://localhost/', protocolBinding: 'JSONRPC', protocolVersion: '1.0' }],
  version: '1',
  capabilities: { streaming: true, extensions: [{ uri: 'urn:x', required: false, params: { a: 1 } }] },
  securitySchemes: {
    bearer: { httpAuthSecurityScheme: { scheme: 'Bearer' } },
    oauth: {
      oauth2SecurityScheme: { flows: { clientCredentials: { tokenUrl: 'https://x.test/t', scopes: { a: 'b' } } } },
    },
  },
  securityRequirements: [{ schemes: { bearer: { list: ['a'] } } }],
  defaultInputModes: ['text/plain'],
  defaultOutputModes: ['text/plain'],
  skills: [{ id: 's', name: 's', description: 's', tags: ['t'], securityRequirements: [{ schemes: { bearer: {} } }] }],
  signatures: [{ protected: 'p', signature: 's' }],
};
const CARD_FIELDS = [
  'name',
  'description',
  'supportedInterfaces',
  'supportedInterfaces.0',
  'supportedInterfaces.0.url',
  'supportedInterfaces.0.protocolBinding',
  'supportedInterfaces.0.protocolVersion',
  'supportedInterfaces.0.tenant',
  'provider',
  'provider.url',
  'version',
  'documentationUrl',
  'capabilities',
  'capabilities.streaming',
  'capabilities.extensions',
  'capabilities.extensions.0.uri',
  'capabilities.extensions.0.params',
  'securitySchemes',
  'securitySchemes.bearer',
  'securitySchemes.bearer.apiKeySecurityScheme',
  'securitySchemes.bearer.httpAuthSecurityScheme.scheme',
  'securitySchemes.oauth.oauth2SecurityScheme.flows',
  'securitySchemes.oauth.oauth2SecurityScheme.flows.clientCredentials.scopes',
  'securitySchemes.oauth.oauth2SecurityScheme.flows.implicit',
  'securityRequirements',
  'securityRequirements.0.schemes',
  'securityRequirements.0.schemes.bearer.list',
  'defaultInputModes',
  'skills',
  'skills.0',
  'skills.0.id',
  'skills.0.tags',
  'skills.0.tags.0',
  'skills.0.examples',
  'signatures',
  'signatures.0.protected',
  'signatures.0.header',
  'iconUrl',
];
const cardInputs = fc
  .array(fc.tuple(fc.nat(), fc.oneof(junk, plausible), fc.boolean()), { minLength: 1, maxLength: 3 })
  .map((changes) => {
    let card: Record<string, unknown> = CARD;
    for (const [n, value, snake] of changes) {
      const field = CARD_FIELDS[n % CARD_FIELDS.length] as string;
      const name = snake ? field.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`) : field;
      card =
        snake && name !== field ? setPath(setPath(card, field, undefined), name, value) : setPath(card, name, value);
    }
    return toJson(card);
  });

describe('generated validators', () => {
  it('are what the generator writes from the current schemas (rebuild: `pnpm build --filter=@a2a/core`)', async () => {
    const zodDir = join(createRequire(import.meta.url).resolve('zod/package.json'), '..');
    const { compileFn } = await import(pathToFileURL(join(zodDir, 'v4/core/compile.js')).href);
    const { util } = await import(pathToFileURL(join(zodDir, 'v4/core/index.js')).href);
    const zodVersion = JSON.parse(readFileSync(join(zodDir, 'package.json'), 'utf8')).version;
    const text = generateValidators({ schemas, plain, compileFn, util, zodVersion });
    expect(text).toBe(readFileSync(join(CORE, GENERATED_PATH), 'utf8'));
    expect(text.startsWith('// @generated')).toBe(true);
    expect(text).not.toMatch(/from 'zod'(?!;\n)|import \{[^}]*\} from 'zod'/); // type imports only
  });

  it('cover every schema an operation or the card check uses', () => {
    for (const operation of Object.values(OPERATIONS) as Operation[]) {
      expect(
        COMPILED.includes(operation.schema) || operation.schema === 'DeleteTaskPushNotificationConfigRequestSchema',
      ).toBe(true);
    }
    for (const name of COMPILED) expect(typeof validators[validatorName(name)]).toBe('function');
  });

  it("agree with the schemas on the templates' own params, valid and as REST query strings", () => {
    for (const template of TEMPLATES) {
      const schemaName = OPERATIONS[template.method as OperationName].schema;
      const params = template.params(KNOWN);
      expect(agree(compiledName(schemaName), toJson(params))).toBe(true);
      agree(compiledName(schemaName), toJson(asQuery(params)));
    }
    expect(agree('AgentCardSchema', toJson(CARD))).toBe(true);
  });

  it('agree with the schemas over the adversarial corpus (accept/refuse, output, the field-named error)', async () => {
    let accepted = 0;
    let total = 0;
    await fc.assert(
      fc.asyncProperty(corpus, async ([name, json]) => {
        total++;
        agree(compiledName(OPERATIONS[name].schema), json);
        if (await engineAgrees(name, json)) accepted++;
      }),
      { seed: SEED, numRuns: RUNS * 3 },
    );
    expect(accepted).toBeGreaterThan(total / 10); // both outcomes well represented
    expect(accepted).toBeLessThan(total);
  });

  it('agree with the schemas over generated near-valid params', async () => {
    let accepted = 0;
    let total = 0;
    await fc.assert(
      fc.asyncProperty(nearValid, async ([name, json]) => {
        total++;
        agree(compiledName(OPERATIONS[name].schema), json);
        if (await engineAgrees(name, json)) accepted++;
      }),
      { seed: SEED, numRuns: RUNS * 3 },
    );
    expect(accepted).toBeGreaterThan(total / 10);
    expect(accepted).toBeLessThan(total);
  });

  it('agree with AgentCardSchema over generated cards', () => {
    let accepted = 0;
    fc.assert(
      fc.property(cardInputs, (json) => {
        if (agree('AgentCardSchema', json)) accepted++;
      }),
      { seed: SEED, numRuns: RUNS * 2 },
    );
    expect(accepted).toBeGreaterThan(RUNS / 10);
  });
});

/** The schema that was compiled for an operation's schema name (Delete's is Get's, the same schema object). */
function compiledName(schemaName: string): string {
  if (COMPILED.includes(schemaName)) return schemaName;
  const schema = schemaOf(schemaName);
  const same = COMPILED.find((name) => schemaOf(name) === schema);
  if (!same) throw new Error(`${schemaName} has no generated validator`);
  return same;
}
