import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { validateTest } from '../src/grammar.js';
import { directorySource, loadCorpus } from '../src/loader.js';
import { skipReason } from '../src/test-runner.js';

const dir = fileURLToPath(new URL('./fixtures/grammar', import.meta.url));
const corpus = loadCorpus(directorySource(dir), 'suite.acts.yaml');
const byId = (id: string) => {
  const test = corpus.tests.find((t) => t.id === id);
  if (!test) throw new Error(`no ${id}`);
  return test;
};

describe('loader', () => {
  it('follows include, keeps going past a missing file, and merges variables', () => {
    expect(corpus.tests.map((t) => t.id)).toEqual([
      'OK-001',
      'BAD-CODE',
      'BAD-OP',
      'BAD-EXPECT',
      'BAD-MIXED',
      'BAD-YAML',
      'BAD-RAW',
    ]);
    expect(corpus.problems).toEqual([{ file: 'missing.acts.yaml', message: expect.stringContaining('cannot read') }]);
    expect(byId('OK-001').variables).toEqual({ greeting: 'hi {{who}}', who: 'there' });
    expect(corpus.specVersion).toBe('1.0');
  });

  it('puts a YAML error on the test that holds it, not on the file', () => {
    expect(byId('BAD-YAML').violations).toEqual([
      expect.objectContaining({ message: expect.stringContaining('YAML') }),
    ]);
    expect(byId('BAD-RAW').violations.some((v) => v.message.includes('YAML'))).toBe(false);
  });
});

describe('grammar', () => {
  it('accepts a well-formed test (an empty requires_behaviors included)', () => {
    expect(byId('OK-001').violations).toEqual([]);
  });

  it.each([
    ['BAD-CODE', 'missing required field "error_type"'],
    ['BAD-OP', 'is not one of send_message'],
    ['BAD-EXPECT', 'field "task" is not part of this structure'],
    ['BAD-MIXED', 'mixes assertion operators (type) with fields or unknown operators (items)'],
    ['BAD-RAW', 'must name its transport'],
  ])('%s: %s', (id, message) => {
    expect(
      byId(id)
        .violations.map((v) => v.message)
        .join('\n'),
    ).toContain(message);
  });

  it('turns a violation into a suite-defect skip', () => {
    const skip = skipReason(byId('BAD-OP'), {
      binding: 'jsonrpc',
      card: {},
      rawBase: {},
      variables: {},
      capabilities: new Set(),
    } as never);
    expect(skip).toEqual({
      category: 'suite defect',
      reason: expect.stringMatching(/^suite defect: steps\[0\]\.operation/),
    });
  });

  it('checks level, transport names, repeat expressions and regular expressions', () => {
    const messages = validateTest({
      id: 'X',
      name: 'x',
      level: 'required',
      transport: ['REST'],
      steps: [
        {
          id: 'a',
          operation: 'get_task',
          params: {},
          repeat: { until: 'status.state ~ done' },
          expect: { body: { name: { matches: '(' } } },
        },
        { id: 'a', assertion: { source: '{{a.response}}' } },
      ],
    }).map((v) => `${v.at}: ${v.message}`);
    expect(messages).toEqual([
      'level: "required" is not one of must / should / may',
      'transport[0]: "REST" is not one of jsonrpc / grpc / rest',
      'steps[0].repeat.until: invalid until expression "status.state ~ done"',
      'steps[0].expect.body.name.matches: invalid regular expression "("',
      'steps[1]: duplicate step id "a"',
    ]);
  });
});
