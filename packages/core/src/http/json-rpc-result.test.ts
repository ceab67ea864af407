import { describe, expect, it } from 'vitest';
import { resultEnvelope, resultHead } from './json-rpc-result.js';
import type { JsonRpcId } from './responses.js';

const IDS: JsonRpcId[] = [
  1,
  0,
  -0,
  -7.5,
  1e21,
  Number.MAX_SAFE_INTEGER,
  null,
  '',
  'plain',
  'with "quotes" and \\ backslash',
  'line\nbreak\ttab\u0000nul\u001f',
  'unicode: é 漢字 🙂 \u2028\u2029',
  'lone surrogate \ud800',
  '</script>',
];

const RESULTS: unknown[] = [
  { statusUpdate: { taskId: 't', contextId: 'c', status: { state: 'TASK_STATE_WORKING' } } },
  { artifactUpdate: { taskId: 't', artifact: { artifactId: 'a', parts: [{ text: 'x "y" \u2028' }] }, append: true } },
  { task: { id: 't', skipped: undefined } },
  'a string',
  42,
  null,
  [1, undefined, 'x'],
  { toJSON: () => ({ replaced: true }) },
  undefined,
];

describe('resultEnvelope', () => {
  it('writes the same bytes as JSON.stringify of the whole envelope', () => {
    for (const id of IDS) {
      const head = resultHead(id);
      for (const result of RESULTS) {
        expect(resultEnvelope(head, id, result)).toBe(JSON.stringify({ jsonrpc: '2.0', id, result }));
      }
    }
  });

  it('leaves out an id JSON has no text for, as the envelope does', () => {
    const id = undefined as unknown as JsonRpcId;
    expect(resultHead(id)).toBeUndefined();
    expect(resultEnvelope(resultHead(id), id, { a: 1 })).toBe('{"jsonrpc":"2.0","result":{"a":1}}');
  });
});
