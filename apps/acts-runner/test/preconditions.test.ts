import { describe, expect, it } from 'vitest';
import type { LoadedTest } from '../src/loader.js';
import { clientParseAnswer, declaresAuthentication, type RunContext, skipReason } from '../src/test-runner.js';

// Synthetic tests and cards: how the runner reads `capabilities.authentication` and runs client tests.
const loaded = (test: Record<string, unknown>): LoadedTest => ({
  file: 'synthetic.acts.yaml',
  suiteId: 's',
  suiteName: 's',
  id: String(test.id),
  name: 'n',
  level: 'must',
  test,
  variables: {},
  specVersion: '1.0',
  violations: [],
});
const context = (card: Record<string, unknown>) =>
  ({ binding: 'jsonrpc', card, rawBase: {}, variables: {}, capabilities: new Set() }) as unknown as RunContext;
const needs = (authentication: unknown) =>
  loaded({ id: 'A', preconditions: { capabilities: { authentication } }, steps: [] });

const scheme = { bearer: { httpAuthSecurityScheme: { scheme: 'Bearer' } } };
const requirement = [{ schemes: { bearer: { list: [] } } }];

describe('capabilities.authentication', () => {
  it('is a card with security schemes and a requirement naming one', () => {
    expect(declaresAuthentication({ securitySchemes: scheme, securityRequirements: requirement })).toBe(true);
    expect(declaresAuthentication({})).toBe(false);
    // Schemes alone are an offer, not a requirement; an empty requirement asks for nothing.
    expect(declaresAuthentication({ securitySchemes: scheme })).toBe(false);
    expect(declaresAuthentication({ securitySchemes: scheme, securityRequirements: [{ schemes: {} }] })).toBe(false);
    expect(declaresAuthentication({ securitySchemes: {}, securityRequirements: requirement })).toBe(false);
  });

  it('decides whether the test runs, both ways', () => {
    const secured = context({ securitySchemes: scheme, securityRequirements: requirement, capabilities: {} });
    const open = context({ capabilities: { streaming: true } });
    expect(skipReason(needs(true), secured)).toBeUndefined();
    expect(skipReason(needs(false), open)).toBeUndefined();
    expect(skipReason(needs(true), open)).toEqual({
      category: 'precondition',
      reason:
        'precondition: capabilities.authentication needs true; the card does not declare securitySchemes with securityRequirements',
    });
    expect(skipReason(needs(false), secured)?.category).toBe('precondition');
  });

  it('a card that has the field is read as written', () => {
    const literal = context({ capabilities: { authentication: false }, securitySchemes: scheme });
    expect(skipReason(needs(false), literal)).toBeUndefined();
    expect(skipReason(needs(true), literal)?.reason).toMatch(/capabilities\.authentication is false/);
  });
});

describe('client tests', () => {
  it('run (through the SUT) instead of being skipped', () => {
    const client = loaded({
      id: 'C',
      steps: [{ id: 'p', client_response: { operation: 'get_task', wire_payload: {} }, expect_parsed: {} }],
    });
    expect(skipReason(client, context({}))).toBeUndefined();
  });

  it("read the first data part of the completed task's artifacts", () => {
    const task = (state: string, artifacts?: unknown[], text?: string) => ({
      task: {
        id: 't',
        status: { state, ...(text && { message: { parts: [{ text }] } }) },
        ...(artifacts && { artifacts }),
      },
    });
    const parsed = { id: 'parsed' };
    expect(
      clientParseAnswer(
        task('TASK_STATE_COMPLETED', [
          { parts: [{ text: 'x' }] },
          { parts: [{ text: 'y' }, { data: parsed }, { data: {} }] },
        ]),
      ),
    ).toEqual({ value: parsed });
    expect(clientParseAnswer(task('TASK_STATE_FAILED', undefined, 'unsupported operation'))).toEqual({
      failure: 'the task ended TASK_STATE_FAILED: unsupported operation',
    });
    expect(clientParseAnswer(task('TASK_STATE_COMPLETED', [{ parts: [{ text: 'x' }] }]))).toEqual({
      failure: 'the completed task has no data part in its artifacts',
    });
    expect(clientParseAnswer({ message: { parts: [] } })).toEqual({
      failure: expect.stringMatching(/^expected a task/),
    });
  });
});
