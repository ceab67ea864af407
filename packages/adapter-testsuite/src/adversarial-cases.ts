// Long on purpose: the declared catalogue of hostile requests, one entry per case, read as one list.
import fc from 'fast-check';
import { FIXTURE_MAX_BODY } from './fixture.js';
import type { RawRequest } from './raw-http.js';

/**
 * One generated request. `path` is relative to the mount. `binding` says what answers it: the JSON-RPC endpoint, an
 * A2A REST route, the agent card, or anything (a path the adapter may or may not own).
 */
export interface AdversarialCase {
  request: RawRequest;
  binding: 'jsonrpc' | 'rest' | 'card' | 'any';
  /** Certainly the client's mistake: must be refused (a JSON-RPC error or a 4xx). */
  invalid?: boolean;
  /** The exact refusal expected: a JSON-RPC error code (JSON-RPC) or an HTTP status (REST). */
  expect?: { code?: number; status?: number };
}

/** Objects the suite fills in before a run: a completed task and one of its push configs. */
export interface Known {
  taskId: string;
  configId: string;
}

const JSON_TYPE: [string, string] = ['content-type', 'application/json'];

/** Raw JSON literals JSON.stringify cannot write (`-1e400`, `1E2`, `-0`...), spliced in by {@link toJson}. */
const RAW_LITERALS = ['1e400', '-1e400', '1E2', '-0', '1.0', '0.5', '2147483648', '-2147483649', '1e-400'] as const;
const raw = (literal: string) => `@@raw:${literal}@@`;
const RAW_MARK = /"@@raw:([^@"]+)@@"/g;
/** Nesting too deep for JSON.stringify's own recursion, written out by {@link toJson}. */
const deepMark = (kind: 'array' | 'object', depth: number) => `@@deep:${kind}:${depth}@@`;
const DEEP_MARK = /"@@deep:(array|object):(\d+)@@"/g;
const deepText = (kind: string, depth: number) =>
  kind === 'array' ? `${'['.repeat(depth)}1${']'.repeat(depth)}` : `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
export const toJson = (value: unknown): string =>
  (JSON.stringify(value) ?? 'null')
    .replace(RAW_MARK, '$1')
    .replace(DEEP_MARK, (_, kind: string, depth: string) => deepText(kind, Number(depth)));

/** Words that make the fixture agent wait (gates, `forever`): no generated text may start with one. */
const tame = (s: string) => (/^(forever|gated|midboom)/.test(s) ? `x${s}` : s);
const text = fc.oneof(fc.string({ maxLength: 24 }), fc.string({ unit: 'binary', maxLength: 12 })).map(tame);
const key = fc.oneof(fc.string({ maxLength: 8 }), fc.constantFrom('__proto__', 'constructor', 'prototype', ''));

/** Values of every JSON type, including the edge cases of numbers, strings and names. */
export const junk: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constantFrom(
      null,
      true,
      false,
      0,
      -1,
      1.5,
      2 ** 31,
      -(2 ** 31) - 1,
      Number.MAX_SAFE_INTEGER,
      1e21,
      '',
      ' ',
      '0',
      '-1',
      '1e3',
      'NaN',
      'true',
      'null',
      '\u0000',
      '\ud800',
      '__proto__',
      'TASK_STATE_COMPLETED',
      'ROLE_USER',
      '2026-01-01T00:00:00Z',
      [],
      {},
      [[]],
      { '': 1 },
    ),
    fc.constantFrom(...RAW_LITERALS).map(raw),
    text,
    fc.integer(),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.array(tie('value'), { maxLength: 3 }),
    fc.dictionary(key, tie('value'), { maxKeys: 3 }),
  ),
})).value;

interface Template {
  method: string;
  params: (k: Known) => Record<string, unknown>;
  /** Field paths to break (dot-separated; numbers index arrays). */
  fields: string[];
  /** The REST form of the call. */
  rest: (params: Record<string, unknown>) => { method: string; path: string; body?: Record<string, unknown> };
}

const seg = (value: unknown) =>
  encodeURIComponent(typeof value === 'string' ? value : toJson(value)).replace(/:/g, '%3A');
const query = (params: Record<string, unknown>, skip: string[]) => {
  const pairs = Object.entries(params)
    .filter(([k]) => !skip.includes(k))
    .map(([k, v]) => `${encodeURIComponent(k)}=${seg(typeof v === 'string' ? v : toJson(v).replace(/^"|"$/g, ''))}`);
  return pairs.length ? `?${pairs.join('&')}` : '';
};
const without = (params: Record<string, unknown>, ...names: string[]) =>
  Object.fromEntries(Object.entries(params).filter(([k]) => !names.includes(k)));

const message = (k: Known) => ({
  messageId: 'adv-message',
  role: 'ROLE_USER',
  parts: [{ text: 'hello', mediaType: 'text/plain', metadata: { a: 1 } }],
  contextId: 'adv-context',
  metadata: { source: 'adversarial' },
  extensions: ['urn:x'],
  referenceTaskIds: [k.taskId],
});
const sendFields = [
  'message',
  'message.messageId',
  'message.role',
  'message.parts',
  'message.parts.0',
  'message.parts.0.text',
  'message.parts.0.raw',
  'message.parts.0.url',
  'message.parts.0.data',
  'message.parts.0.mediaType',
  'message.parts.0.filename',
  'message.parts.0.metadata',
  'message.contextId',
  'message.taskId',
  'message.metadata',
  'message.extensions',
  'message.referenceTaskIds',
  'message.referenceTaskIds.0',
  'configuration',
  'configuration.historyLength',
  'configuration.returnImmediately',
  'configuration.acceptedOutputModes',
  'configuration.taskPushNotificationConfig',
  'configuration.taskPushNotificationConfig.url',
  'configuration.taskPushNotificationConfig.token',
  'configuration.taskPushNotificationConfig.authentication',
  'configuration.taskPushNotificationConfig.authentication.scheme',
  'metadata',
  'tenant',
];
const sendParams = (k: Known) => ({
  message: message(k),
  configuration: {
    returnImmediately: true,
    historyLength: 2,
    acceptedOutputModes: ['text/plain'],
    taskPushNotificationConfig: {
      url: 'https://example.com/hook',
      token: 't',
      authentication: { scheme: 'Bearer', credentials: 'c' },
    },
  },
  metadata: { m: 1 },
});

export const TEMPLATES: Template[] = [
  {
    method: 'SendMessage',
    params: sendParams,
    fields: sendFields,
    rest: (p) => ({ method: 'POST', path: '/message:send', body: p }),
  },
  {
    method: 'SendStreamingMessage',
    params: sendParams,
    fields: sendFields,
    rest: (p) => ({ method: 'POST', path: '/message:stream', body: p }),
  },
  {
    method: 'GetTask',
    params: (k) => ({ id: k.taskId, historyLength: 1 }),
    fields: ['id', 'historyLength', 'tenant'],
    rest: (p) => ({ method: 'GET', path: `/tasks/${seg(p.id)}${query(p, ['id'])}` }),
  },
  {
    method: 'ListTasks',
    params: () => ({
      contextId: 'adv-context',
      status: 'TASK_STATE_COMPLETED',
      pageSize: 10,
      pageToken: '',
      historyLength: 1,
      statusTimestampAfter: '2020-01-01T00:00:00Z',
      includeArtifacts: true,
    }),
    fields: [
      'contextId',
      'status',
      'pageSize',
      'pageToken',
      'historyLength',
      'statusTimestampAfter',
      'includeArtifacts',
      'tenant',
    ],
    rest: (p) => ({ method: 'GET', path: `/tasks${query(p, [])}` }),
  },
  {
    method: 'CancelTask',
    params: (k) => ({ id: k.taskId, metadata: { why: 'adversarial' } }),
    fields: ['id', 'metadata', 'tenant'],
    rest: (p) => ({ method: 'POST', path: `/tasks/${seg(p.id)}:cancel`, body: without(p, 'id') }),
  },
  {
    method: 'SubscribeToTask',
    params: (k) => ({ id: k.taskId }),
    fields: ['id', 'tenant'],
    rest: (p) => ({ method: 'GET', path: `/tasks/${seg(p.id)}:subscribe${query(p, ['id'])}` }),
  },
  {
    method: 'CreateTaskPushNotificationConfig',
    params: (k) => ({
      taskId: k.taskId,
      id: 'adv-config',
      url: 'https://example.com/hook',
      token: 't',
      authentication: { scheme: 'Bearer', credentials: 'c' },
    }),
    fields: ['taskId', 'id', 'url', 'token', 'authentication', 'authentication.scheme', 'tenant'],
    rest: (p) => ({
      method: 'POST',
      path: `/tasks/${seg(p.taskId)}/pushNotificationConfigs`,
      body: without(p, 'taskId'),
    }),
  },
  {
    method: 'GetTaskPushNotificationConfig',
    params: (k) => ({ taskId: k.taskId, id: k.configId }),
    fields: ['taskId', 'id', 'tenant'],
    rest: (p) => ({ method: 'GET', path: `/tasks/${seg(p.taskId)}/pushNotificationConfigs/${seg(p.id)}` }),
  },
  {
    method: 'ListTaskPushNotificationConfigs',
    params: (k) => ({ taskId: k.taskId, pageSize: 10, pageToken: '' }),
    fields: ['taskId', 'pageSize', 'pageToken', 'tenant'],
    rest: (p) => ({
      method: 'GET',
      path: `/tasks/${seg(p.taskId)}/pushNotificationConfigs${query(p, ['taskId'])}`,
    }),
  },
  {
    method: 'DeleteTaskPushNotificationConfig',
    params: (k) => ({ taskId: k.taskId, id: 'no-such-config' }),
    fields: ['taskId', 'id', 'tenant'],
    rest: (p) => ({ method: 'DELETE', path: `/tasks/${seg(p.taskId)}/pushNotificationConfigs/${seg(p.id)}` }),
  },
  {
    method: 'GetExtendedAgentCard',
    params: () => ({}),
    fields: ['tenant'],
    rest: () => ({ method: 'GET', path: '/extendedAgentCard' }),
  },
];

/** Sets (or, for `undefined`, deletes) a dotted path in a copy of `target`, making missing containers. */
export function setPath(target: Record<string, unknown>, path: string, value: unknown): Record<string, unknown> {
  const root = structuredClone(target);
  const names = path.split('.');
  let node: Record<string, unknown> = root;
  for (const name of names.slice(0, -1)) {
    const next = node[name];
    if (typeof next !== 'object' || next === null) node[name] = {};
    node = node[name] as Record<string, unknown>;
  }
  const last = names.at(-1) as string;
  if (value === undefined) delete node[last];
  else Object.defineProperty(node, last, { value, enumerable: true, writable: true, configurable: true });
  return root;
}

const rpcBody = (method: unknown, params: unknown, id: unknown = 1) =>
  toJson({ jsonrpc: '2.0', id, method, ...(params !== undefined && { params }) });

export const rpcCase = (body: string | Uint8Array, headers: RawRequest['headers'] = [JSON_TYPE]): RawRequest => ({
  method: 'POST',
  path: '/',
  headers,
  body,
});

const METHOD_NAMES = TEMPLATES.map((t) => t.method);

/** Category: the JSON-RPC envelope (version, id, method, params of every shape; batches; bare values). */
export const envelopeCases = (): fc.Arbitrary<AdversarialCase> =>
  fc
    .oneof(
      fc
        .record(
          {
            jsonrpc: fc.oneof(fc.constant('2.0'), fc.constantFrom('1.0', '2', 2, 2.0, '2.0 ', null), junk),
            id: fc.oneof(fc.constant(7), fc.constant('id-1'), fc.constant(null), junk),
            method: fc.oneof(
              fc.constantFrom(
                ...METHOD_NAMES,
                'sendmessage',
                'SENDMESSAGE',
                'sendMessage',
                ' SendMessage',
                'SendMessage ',
                'message/send',
                'message/stream',
                'tasks/get',
                'tasks/cancel',
                'tasks/resubscribe',
                'tasks/pushNotificationConfig/set',
                'rpc.discover',
                '__proto__',
                'constructor',
                'hasOwnProperty',
                'toString',
                'valueOf',
                '',
                'a/b/c',
              ),
              junk,
            ),
            params: fc.oneof(fc.constant(undefined), fc.constant({}), junk),
          },
          { requiredKeys: [] },
        )
        .map((envelope) => ({
          body: toJson(envelope),
          invalid: envelope.jsonrpc !== '2.0' || typeof envelope.method !== 'string',
        })),
      fc.array(junk, { maxLength: 3 }).map((batch) => ({ body: toJson(batch), invalid: true })),
      junk.filter((v) => typeof v !== 'object' || v === null).map((v) => ({ body: toJson(v), invalid: true })),
      fc.constantFrom('', ' ', '{', '{"jsonrpc":"2.0",', '[', 'nul', '{"a":1}}', '\u0000').map((body) => ({
        body,
        invalid: true,
      })),
    )
    .map(({ body, invalid }) => ({ request: rpcCase(body), binding: 'jsonrpc', invalid }));

/** Category: one request field of one operation replaced by a value of another type (or removed). */
export const fieldCases = (k: Known): fc.Arbitrary<AdversarialCase> =>
  fc
    .tuple(fc.constantFrom(...TEMPLATES), fc.nat(), fc.oneof(junk, fc.constant(undefined)), fc.boolean(), fc.boolean())
    .map(([template, n, value, viaRest, snake]) => {
      const field = template.fields[n % template.fields.length] as string;
      // ProtoJSON also reads snake_case names: break the field under that name half the time.
      const name = snake ? field.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`) : field;
      const base = template.params(k);
      const params =
        snake && name !== field ? setPath(setPath(base, field, undefined), name, value) : setPath(base, name, value);
      if (!viaRest) return { request: rpcCase(rpcBody(template.method, params)), binding: 'jsonrpc' as const };
      const rest = template.rest(params);
      // An empty path segment is no route at all (the framework's 404).
      const routed = !/\/\/|\/(:|$)|\/\?/.test(rest.path.replace(/^\/tasks\?/, '/tasks'));
      return {
        request: {
          method: rest.method,
          path: rest.path,
          headers: rest.body ? [JSON_TYPE] : [],
          ...(rest.body && { body: toJson(rest.body) }),
        },
        binding: routed ? ('rest' as const) : ('any' as const),
      };
    });

/** Category: numbers JSON.parse reads as non-int32 (`-1e400` is -Infinity, not "unset"): always -32602 / 400. */
export const numberCases = (k: Known): fc.Arbitrary<AdversarialCase> =>
  fc
    .tuple(
      fc.constantFrom(
        ['GetTask', 'historyLength'],
        ['ListTasks', 'historyLength'],
        ['ListTasks', 'pageSize'],
        ['SendMessage', 'configuration.historyLength'],
      ),
      fc.constantFrom('1e400', '-1e400', '0.5', '2147483648', '-2147483649', '1e-400', '-1'),
      fc.boolean(),
    )
    .map(([[method, field], literal, viaRest]) => {
      const template = TEMPLATES.find((t) => t.method === method) as Template;
      const params = setPath(template.params(k), field as string, raw(literal));
      // 1e-400 parses as 0: valid for historyLength, not for pageSize; -1 is never valid here.
      const valid = literal === '1e-400' && field !== 'pageSize';
      const rest = template.rest(params);
      const bodied = viaRest && rest.body !== undefined;
      if (!bodied)
        return {
          request: rpcCase(rpcBody(method, params)),
          binding: 'jsonrpc' as const,
          ...(!valid && { invalid: true, expect: { code: -32602 } }),
        };
      return {
        request: { method: rest.method, path: rest.path, headers: [JSON_TYPE], body: toJson(rest.body) },
        binding: 'rest' as const,
        ...(!valid && { invalid: true, expect: { status: 400 } }),
      };
    });

const printable = fc.string({
  unit: fc
    .integer({ min: 0x20, max: 0xff })
    .filter((c) => c !== 0x7f)
    .map((c) => String.fromCharCode(c)),
  maxLength: 40,
});

const CONTENT_TYPES = [
  'application/json',
  'APPLICATION/JSON',
  'application/json; charset=utf-8',
  'application/json;charset=UTF-8',
  'application/json; charset="utf-8"',
  'application/a2a+json',
  'application/a2a+json; charset=utf-8',
  'application/json;;;',
  'application/json; foo',
  'application/jsonx',
  'application/json-patch+json',
  'text/json',
  'text/plain',
  'text/html',
  'multipart/form-data; boundary=x',
  'application/x-www-form-urlencoded',
  '*/*',
  '',
  ';',
];
const VERSIONS = ['1.0', '0.3', '1', 'v1.0', '1.0.1', '1.a', '99.99', '-1.0', '1.0, 0.3', ' ', '1.0; q=1', '\u00e9'];

/** Category: odd, junk, duplicate and huge headers on every kind of call. */
export const headerCases = (k: Known): fc.Arbitrary<AdversarialCase> =>
  fc
    .record({
      target: fc.constantFrom('rpc-send', 'rpc-list', 'rpc-subscribe', 'rest-send', 'rest-list', 'rest-subscribe'),
      contentType: fc.oneof(fc.constantFrom(...CONTENT_TYPES), printable),
      doubleContentType: fc.boolean(),
      version: fc.option(fc.oneof(fc.constantFrom(...VERSIONS), printable), { nil: undefined }),
      doubleVersion: fc.boolean(),
      extensions: fc.option(fc.oneof(printable, fc.constant(`${'urn:a,'.repeat(500)}urn:b`)), { nil: undefined }),
      lastEventId: fc.option(fc.oneof(printable, fc.constantFrom('-1', '0', '99999999999999999999', 'NaN')), {
        nil: undefined,
      }),
      long: fc.option(fc.integer({ min: 100, max: 12_000 }), { nil: undefined }),
    })
    .map((h) => {
      const headers: [string, string][] = [['content-type', h.contentType]];
      if (h.doubleContentType) headers.push(['content-type', 'text/plain']);
      if (h.version !== undefined) headers.push(['a2a-version', h.version]);
      if (h.version !== undefined && h.doubleVersion) headers.push(['A2A-Version', '0.3']);
      if (h.extensions !== undefined) headers.push(['a2a-extensions', h.extensions]);
      if (h.lastEventId !== undefined) headers.push(['last-event-id', h.lastEventId]);
      if (h.long !== undefined) headers.push(['x-junk', 'j'.repeat(h.long)]);
      const send = toJson({
        message: { ...message(k), messageId: 'adv-h' },
        configuration: { returnImmediately: true },
      });
      switch (h.target) {
        case 'rpc-send':
          return { request: rpcCase(rpcBody('SendMessage', JSON.parse(send)), headers), binding: 'jsonrpc' };
        case 'rpc-list':
          return { request: rpcCase(rpcBody('ListTasks', {}), headers), binding: 'jsonrpc' };
        case 'rpc-subscribe':
          return { request: rpcCase(rpcBody('SubscribeToTask', { id: k.taskId }), headers), binding: 'jsonrpc' };
        case 'rest-send':
          return { request: { method: 'POST', path: '/message:send', headers, body: send }, binding: 'rest' };
        case 'rest-list':
          return { request: { method: 'GET', path: '/tasks', headers }, binding: 'rest' };
        default:
          return { request: { method: 'GET', path: `/tasks/${k.taskId}:subscribe`, headers }, binding: 'rest' };
      }
    });

const PATHS = [
  '/',
  '/message:send',
  '/message:stream',
  '/message:SEND',
  '/message',
  '/tasks',
  '/tasks/',
  '/tasks/x',
  '/tasks/x:cancel',
  '/tasks/x:subscribe',
  '/tasks/x:frobnicate',
  '/tasks/x/pushNotificationConfigs',
  '/tasks/x/pushNotificationConfigs/y',
  '/tasks/x/pushNotificationConfigs/y/z',
  '/extendedAgentCard',
  '/.well-known/agent-card.json',
  '/.well-known/agent.json',
  '/.well-known/jwks.json',
  '/v1/message:send',
  '/v1/tasks/x',
  '/v1/card',
  '/tenant-a/tasks',
  '/tenant-a/message:send',
  '//tasks',
  '/tasks/%zz',
  '/tasks/%00',
  '/tasks/%2e%2e%2f%2e%2e%2fetc',
  '/tasks/..%2F..%2F',
  '/%E2%82%AC/tasks',
  '/tasks?pageSize=abc&pageSize=2',
  '/tasks?status=%zz',
  '/tasks?A2A-Version=9.9',
  '/tasks#fragment',
  `/tasks/${'a'.repeat(4000)}`,
];

/** Category: every method on A2A paths and their near misses. */
export const methodCases = (): fc.Arbitrary<AdversarialCase> =>
  fc
    .record({
      method: fc.constantFrom(
        'GET',
        'HEAD',
        'POST',
        'PUT',
        'DELETE',
        'PATCH',
        'OPTIONS',
        'PROPFIND',
        'SEARCH',
        'PURGE',
      ),
      path: fc.oneof(
        fc.constantFrom(...PATHS),
        text.map((s) => `/tasks/${s.replace(/[^\x21-\x7e]/g, '_')}`),
      ),
      body: fc.option(fc.oneof(junk.map(toJson), fc.constant(rpcBody('ListTasks', {}))), { nil: undefined }),
    })
    .map(({ method, path, body }) => ({
      request: {
        method,
        path,
        headers: body === undefined ? [] : [JSON_TYPE],
        ...(body !== undefined && { body }),
      },
      binding: 'any' as const,
    }));

const utf8 = (s: string) => new TextEncoder().encode(s);
const join = (...parts: Uint8Array[]) => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.byteLength, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.byteLength;
  }
  return out;
};
const BAD_UTF8 = [[0xff], [0xc0, 0xaf], [0xed, 0xa0, 0x80], [0xe2, 0x82], [0xf8, 0x88, 0x80, 0x80, 0x80], [0x80]].map(
  (b) => new Uint8Array(b),
);

/** Category: bodies that are not clean UTF-8 JSON (invalid sequences, BOMs, other charsets, encodings). */
export const encodingCases = (k: Known): fc.Arbitrary<AdversarialCase> =>
  fc
    .record({
      viaRest: fc.boolean(),
      kind: fc.constantFrom('bad-utf8', 'bom', 'utf16', 'latin1', 'nul'),
      bad: fc.constantFrom(...BAD_UTF8),
      charset: fc.constantFrom('', '; charset=utf-8', '; charset=utf8', '; charset=UTF-8', '; charset=utf-16le'),
    })
    .map(({ viaRest, kind, bad, charset }) => {
      const params = { message: { ...message(k), messageId: 'adv-e' }, configuration: { returnImmediately: true } };
      const json = viaRest ? toJson(params) : rpcBody('SendMessage', params);
      const [before, after] = json.split('hello') as [string, string];
      let body: Uint8Array;
      switch (kind) {
        case 'bad-utf8':
          body = join(utf8(before), bad, utf8(after));
          break;
        case 'bom':
          body = join(new Uint8Array([0xef, 0xbb, 0xbf]), utf8(json));
          break;
        case 'utf16':
          body = new Uint8Array(Buffer.from(json, 'utf16le'));
          break;
        case 'latin1':
          body = new Uint8Array(Buffer.from(`${before}h\u00e9llo${after}`, 'latin1'));
          break;
        default:
          body = join(utf8(before), new Uint8Array([0]), utf8(after));
      }
      const headers: [string, string][] = [['content-type', `application/json${charset}`]];
      const valid = kind === 'bom' || (kind === 'utf16' && charset.includes('16')); // allowed either way
      const request: RawRequest = viaRest
        ? { method: 'POST', path: '/message:send', headers, body }
        : rpcCase(body, headers);
      return { request, binding: viaRest ? 'rest' : 'jsonrpc', ...(!valid && kind !== 'latin1' && { invalid: true }) };
    });

/** Category: unsupported charsets and broken Content-Encoding (what body parsers in front refuse). */
export const charsetCases = (): fc.Arbitrary<AdversarialCase> =>
  fc
    .record({
      viaRest: fc.boolean(),
      header: fc.constantFrom<[string, string]>(
        ['content-type', 'application/json; charset=bogus'],
        ['content-type', 'application/json; charset=utf-32'],
        ['content-type', 'application/json; charset=iso-8859-1'],
        ['content-encoding', 'gzip'],
        ['content-encoding', 'deflate'],
        ['content-encoding', 'br'],
        ['content-encoding', 'compress'],
        ['content-encoding', 'identity, gzip'],
      ),
    })
    .map(({ viaRest, header }) => {
      const body = viaRest ? '{"pageSize": 1}' : rpcBody('ListTasks', {});
      const headers: [string, string][] = header[0] === 'content-type' ? [header] : [JSON_TYPE, header];
      return {
        request: viaRest ? { method: 'POST', path: '/message:send', headers, body } : rpcCase(body, headers),
        binding: viaRest ? 'rest' : 'jsonrpc',
      };
    });

/** Category: deeply nested JSON wherever the schemas take any JSON (metadata, data parts, params, the id). */
export const deepCases = (k: Known): fc.Arbitrary<AdversarialCase> =>
  fc
    .record({
      depth: fc.integer({ min: 200, max: 12_000 }),
      kind: fc.constantFrom<'array' | 'object'>('array', 'object'),
      where: fc.constantFrom('metadata', 'message.metadata', 'message.parts.0.data', 'id', 'params'),
    })
    .map(({ depth, kind, where }) => {
      const nested = deepMark(kind, depth);
      const params = { message: { ...message(k), messageId: 'adv-d' }, configuration: { returnImmediately: true } };
      const body =
        where === 'id'
          ? rpcBody('ListTasks', {}, nested)
          : where === 'params'
            ? rpcBody('ListTasks', nested)
            : rpcBody(
                'SendMessage',
                setPath(
                  where === 'message.parts.0.data' ? setPath(params, 'message.parts.0.text', undefined) : params,
                  where,
                  nested,
                ),
              );
      return { request: rpcCase(body), binding: 'jsonrpc' as const };
    });

/** Category: bodies around the size limit, declared with Content-Length. */
export const sizeCases = (): fc.Arbitrary<AdversarialCase> =>
  fc
    .record({ size: fc.integer({ min: FIXTURE_MAX_BODY - 512, max: FIXTURE_MAX_BODY * 3 }), viaRest: fc.boolean() })
    .map(({ size, viaRest }) => {
      const shell = viaRest
        ? toJson({ message: { messageId: 'adv-s', role: 'ROLE_USER', parts: [{ text: '' }] } })
        : rpcBody('SendMessage', { message: { messageId: 'adv-s', role: 'ROLE_USER', parts: [{ text: '' }] } });
      const body = shell.replace('"text":""', `"text":"${'a'.repeat(Math.max(0, size - shell.length))}"`);
      const over = utf8(body).byteLength > FIXTURE_MAX_BODY;
      return {
        request: viaRest ? { method: 'POST', path: '/message:send', headers: [JSON_TYPE], body } : rpcCase(body),
        binding: viaRest ? ('rest' as const) : ('jsonrpc' as const),
        ...(over && { invalid: true, expect: { status: 413 } }),
      };
    });

/** Category: chunked bodies under the limit (small, odd chunk sizes). */
export const chunkedCases = (k: Known): fc.Arbitrary<AdversarialCase> =>
  fc
    .record({ chunkSize: fc.integer({ min: 1, max: 4096 }), body: fc.oneof(junk.map(toJson), fc.constant('')) })
    .map(({ chunkSize, body }) => ({
      request: { ...rpcCase(body || rpcBody('GetTask', { id: k.taskId })), chunkSize },
      binding: 'jsonrpc' as const,
    }));

/** Category (known bridge bug, issue 15 item 1): chunked bodies over the limit. */
export const chunkedOverLimitCases = (): fc.Arbitrary<AdversarialCase> =>
  fc
    .record({ extra: fc.integer({ min: 1, max: FIXTURE_MAX_BODY }), chunkSize: fc.integer({ min: 512, max: 65_536 }) })
    .map(({ extra, chunkSize }) => ({
      request: {
        ...rpcCase(rpcBody('SendMessage', { message: { pad: 'a'.repeat(FIXTURE_MAX_BODY + extra) } })),
        chunkSize,
      },
      binding: 'jsonrpc' as const,
      invalid: true,
      expect: { status: 413 },
    }));

/** Category (known bridge bug, issue 15 item 2): TRACE (and friends Fetch's Request refuses) on A2A paths. */
export const traceCases = (): fc.Arbitrary<AdversarialCase> =>
  fc.record({ path: fc.constantFrom('/', '/tasks', '/message:send', '/tasks/x') }).map(({ path }) => ({
    request: { method: 'TRACE', path, headers: [] },
    binding: 'any' as const,
  }));

/**
 * Category (known bridge bug, issue 15 item 3): Host headers that are no URL authority, and the `*` request target
 * (both make the bridge's request URL unparsable).
 */
export const hostCases = (): fc.Arbitrary<AdversarialCase> =>
  fc
    .record({
      host: fc.oneof(fc.constantFrom('a b', '[::1', 'x:99999', 'a%zz', '', ':', '@', 'a/b', '[]'), printable),
      route: fc.constantFrom('rpc', 'list', 'get', 'card', 'star'),
    })
    .map(({ host, route }): AdversarialCase => {
      const headers: [string, string][] = [['host', host]];
      switch (route) {
        case 'star':
          return { request: { method: 'OPTIONS', path: '*', headers: [] }, binding: 'any' };
        case 'list':
          return { request: { method: 'GET', path: '/tasks', headers }, binding: 'rest' };
        case 'get':
          return { request: { method: 'GET', path: '/tasks/adv-no-such-task', headers }, binding: 'rest' };
        case 'card':
          // The card is ours at every Host: a refusal (400, google.rpc.Status) or the card, never the host's 404.
          return { request: { method: 'GET', path: '/.well-known/agent-card.json', headers }, binding: 'card' };
        default:
          return { request: rpcCase(rpcBody('ListTasks', {}), [JSON_TYPE, ...headers]), binding: 'jsonrpc' };
      }
    });
