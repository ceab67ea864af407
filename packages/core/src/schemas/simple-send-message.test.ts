import { describe, expect, it } from 'vitest';
import { SendMessageRequestSchema } from './requests.js';
import { simpleSendMessage } from './simple-send-message.js';

const message = (fields: Record<string, unknown> = {}) => ({
  messageId: 'm-1',
  role: 'ROLE_USER',
  parts: [{ text: 'hello' }],
  ...fields,
});

// Every input the shortcut takes must come out exactly as the schema's output (values and key order).
const taken: unknown[] = [
  { message: message() },
  { message: message({ role: 'ROLE_AGENT' }) },
  { message: message({ contextId: 'c-1' }) },
  { message: message({ taskId: 't-1', contextId: 'c-1' }) },
  { message: { parts: [{ text: '' }, { text: 'two' }], role: 'ROLE_USER', taskId: 't', messageId: 'x' } },
];

// Anything else is left to the schema, valid or not.
const declined: unknown[] = [
  undefined,
  null,
  [],
  'text',
  {},
  { message: message(), tenant: 'acme' },
  { message: message(), configuration: { returnImmediately: true } },
  { message: message(), metadata: {} },
  { message: message({ metadata: { a: 1 } }) },
  { message: message({ extensions: [] }) },
  { message: message({ kind: 'message' }) },
  { message: message({ message_id: 'm-2' }) },
  { message: message({ messageId: '' }) },
  { message: message({ messageId: 7 }) },
  { message: message({ contextId: '' }) },
  { message: message({ contextId: null }) },
  { message: message({ taskId: 1 }) },
  { message: message({ role: 'user' }) },
  { message: message({ role: 1 }) },
  { message: message({ role: 'ROLE_UNSPECIFIED' }) },
  { message: message({ parts: [] }) },
  { message: message({ parts: {} }) },
  { message: message({ parts: [null] }) },
  { message: message({ parts: [[]] }) },
  { message: message({ parts: [{ text: 1 }] }) },
  { message: message({ parts: [{ text: 'a', kind: 'text' }] }) },
  { message: message({ parts: [{ text: 'a', mediaType: 'text/plain' }] }) },
  { message: message({ parts: [{ data: {} }] }) },
  { message: message({ parts: [{ text: 'a' }, { url: 'https://x' }] }) },
  { message: [] },
  { message: null },
  JSON.parse('{"message":{"messageId":"m","role":"ROLE_USER","parts":[{"text":"a"}],"__proto__":{"x":1}}}'),
];

describe('simpleSendMessage', () => {
  it.each(taken.map((input) => [JSON.stringify(input), input]))(
    'takes %s exactly as the schema reads it',
    (_, input) => {
      const expected = SendMessageRequestSchema.parse(input);
      const got = simpleSendMessage(input);
      expect(got).toEqual(expected);
      expect(JSON.stringify(got)).toBe(JSON.stringify(expected));
    },
  );

  it.each(declined.map((input) => [JSON.stringify(input) ?? String(input), input]))(
    'leaves %s to the schema',
    (_, input) => {
      expect(simpleSendMessage(input)).toBeUndefined();
    },
  );

  it('copies the parts, so the caller cannot change what was checked', () => {
    const input = { message: message() };
    const got = simpleSendMessage(input);
    input.message.parts[0] = { text: 'changed' };
    expect(got?.message.parts).toEqual([{ text: 'hello' }]);
  });
});
