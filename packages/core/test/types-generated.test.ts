// The protocol types generated from the Zod schemas (src/schemas/types.generated.ts, scripts/generate-types.mjs):
// plain declarations, so that core's public types need no `zod` installed. The generator proves each identical to its
// schema's `z.output` with the compiler; this test fails when the committed file is not what it writes now, and checks
// the same identity statically (a `tsc` of the tests fails on a difference).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { GENERATED_TYPES_PATH, generateTypes, TYPES, verify } from '../../../scripts/generate-types.mjs';
import type * as S from '../src/schemas/index.js';
import type * as G from '../src/schemas/types.generated.js';

type Same<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
const identical: Record<string, true> = {
  Part: true as Same<G.Part, z.output<typeof S.PartSchema>>,
  Message: true as Same<G.Message, z.output<typeof S.MessageSchema>>,
  Task: true as Same<G.Task, z.output<typeof S.TaskSchema>>,
  SendMessageRequest: true as Same<G.SendMessageRequest, z.output<typeof S.SendMessageRequestSchema>>,
  ListTasksResponse: true as Same<G.ListTasksResponse, z.output<typeof S.ListTasksResponseSchema>>,
  SecurityScheme: true as Same<G.SecurityScheme, z.output<typeof S.SecuritySchemeSchema>>,
  AgentCard: true as Same<G.AgentCard, z.output<typeof S.AgentCardSchema>>,
};

describe('generated protocol types', () => {
  it('are what the generator writes from the current schemas (rebuild: `pnpm build --filter=@a2a/core`)', () => {
    // generateTypes() throws unless every type is identical to its schema's output.
    expect(generateTypes()).toBe(readFileSync(GENERATED_TYPES_PATH, 'utf8'));
    expect(Object.keys(identical).every((name) => TYPES.some(([t]) => t === name))).toBe(true);
  }, 60_000);

  it('are checked against the schemas: a type that differs fails the generation', () => {
    const text = readFileSync(GENERATED_TYPES_PATH, 'utf8');
    expect(() => verify(text)).not.toThrow();
    // Task's contextId made optional: no longer its schema's output.
    const mutated = text.replace(/(export type Task = \{\n {2}id: string;\n {2}contextId)(: string;)/, '$1?$2');
    expect(mutated).not.toBe(text);
    expect(() => verify(mutated)).toThrow(/Task/);
  }, 60_000);

  it('import nothing and name no Zod type, nor any', () => {
    const code = readFileSync(GENERATED_TYPES_PATH, 'utf8')
      .split('\n')
      .filter((line) => !/^\s*(\/\/|\/\*\*)/.test(line));
    expect(code.filter((line) => /^import |\bany\b|\bz\.|\$Zod|\bzod\b/.test(line))).toEqual([]);
  });
});
