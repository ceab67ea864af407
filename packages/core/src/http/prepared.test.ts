import { describe, expect, it } from 'vitest';
import {
  eventStreamResponse,
  finishedEventStream,
  plainHeaders,
  plainResponse,
  preparedBody,
  prepareRequest,
  requestDisconnect,
  responseFrames,
  responseHeaders,
  responseText,
  textResponse,
} from './prepared.js';

async function* frames(): AsyncGenerator<string> {
  yield 'data: 2\n\n';
}

describe('prepared requests and responses (the bridge side channel)', () => {
  it('a prepared request hands its body and disconnect hook to the handler and nothing else sees them', async () => {
    const bytes = new TextEncoder().encode('{"a":1}');
    const disconnect = { signal: () => new AbortController().signal, onAbort: () => () => {} };
    const request = prepareRequest(new Request('http://h/x', { method: 'POST', body: 'other' }), {
      body: bytes,
      disconnect,
    });
    expect(preparedBody(request)).toBe(bytes);
    expect(requestDisconnect(request)).toBe(disconnect);
    expect(Object.keys(request)).toEqual([]);
    expect(await request.text()).toBe('other'); // the Request itself is untouched

    const lazy = prepareRequest(new Request('http://h/y', { method: 'POST' }), { body: async () => bytes });
    expect(await preparedBody(lazy)).toBe(bytes);
  });

  it('a plain Request has no prepared body or hook', () => {
    const request = new Request('http://h/x', { method: 'POST', body: 'x' });
    expect(preparedBody(request)).toBeUndefined();
    expect(requestDisconnect(request).onAbort).toBeUndefined();
  });

  it('a text response gives its text to bridges and still reads as a normal Response', async () => {
    const response = textResponse('{"ok":true}', { status: 201, headers: { 'content-type': 'application/json' } });
    expect(responseText(response)).toBe('{"ok":true}');
    expect(response.status).toBe(201);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(await response.json()).toEqual({ ok: true });
    expect(responseText(new Response('{"ok":true}'))).toBeUndefined();
    expect(responseText(textResponse(null, { status: 204, headers: {} }))).toBeUndefined();
  });

  it('an event-stream response gives its frames to bridges; other responses have none', async () => {
    const options = { keepAliveMs: 60_000, first: 'data: 1\n\n', rest: frames(), errorFrame: () => '' };
    const response = eventStreamResponse(options, { status: 200, headers: { 'content-type': 'text/event-stream' } });
    expect(responseFrames(response)).toBe(options);
    expect(responseFrames(textResponse('x', { status: 200, headers: {} }))).toBeUndefined();
    expect(responseText(response)).toBeUndefined();
    expect(await response.text()).toBe('data: 1\n\ndata: 2\n\n');
  });

  it('an event-stream response clones with its frames in both copies, and says when its body was read', async () => {
    const options = { keepAliveMs: 60_000, first: 'data: 1\n\n', rest: frames(), errorFrame: () => '' };
    const response = eventStreamResponse(options, { status: 200, headers: { 'content-type': 'text/event-stream' } });
    expect(response.bodyUsed).toBe(false);
    const copy = response.clone();
    expect(copy.headers.get('content-type')).toBe('text/event-stream');
    expect(await copy.text()).toBe('data: 1\n\ndata: 2\n\n'); // was '': the empty native response's clone
    expect(await response.text()).toBe('data: 1\n\ndata: 2\n\n');
    expect(response.bodyUsed).toBe(true);
  });

  it('an event stream that is over when its plain copy is made is its whole text; one that goes on streams on', async () => {
    const init = { status: 200, headers: { 'content-type': 'text/event-stream' } };
    const over = ['data: 2\n\n', 'data: 3\n\n', null];
    const options = { keepAliveMs: 60_000, first: 'data: 1\n\n', rest: frames(), errorFrame: () => '' };
    const finished = eventStreamResponse({ ...options, ready: () => over.shift() }, init);
    expect(finishedEventStream(finished)).toBe(false); // nothing made yet
    const copy = plainResponse(finished);
    expect(finishedEventStream(finished)).toBe(true);
    expect(copy.headers.get('content-type')).toBe('text/event-stream');
    expect(await copy.text()).toBe('data: 1\n\ndata: 2\n\ndata: 3\n\n');

    // More may come: the frames taken lead the stream, which goes on with the source's next().
    const later = ['data: 1b\n\n', undefined];
    const going = eventStreamResponse({ ...options, rest: frames(), ready: () => later.shift() }, init);
    const streamed = plainResponse(going);
    expect(finishedEventStream(going)).toBe(false);
    expect(await streamed.text()).toBe('data: 1\n\ndata: 1b\n\ndata: 2\n\n');

    // A source that fails while its frames are taken ends with the error frame, as the stream would send it.
    const failing = eventStreamResponse(
      {
        ...options,
        rest: frames(),
        ready: () => {
          throw new Error('gone');
        },
        errorFrame: (error) => `event: error\ndata: ${(error as Error).message}\n\n`,
      },
      init,
    );
    expect(await plainResponse(failing).text()).toBe('data: 1\n\nevent: error\ndata: gone\n\n');
    expect(finishedEventStream(failing)).toBe(true);
  });

  it('a lazy response hands its header record to bridges until someone reads (and may change) its Headers', () => {
    const record = { 'content-type': 'application/json', etag: '"x1"' };
    const response = textResponse('{}', { status: 200, headers: record });
    expect(responseHeaders(response)).toBe(record); // no Headers made

    response.headers.set('x-added', 'by middleware');
    expect(responseHeaders(response)).toEqual({ ...record, 'x-added': 'by middleware' });
    expect(record).toEqual({ 'content-type': 'application/json', etag: '"x1"' }); // the record is never written
  });

  it('headers a bridge could not write as they are go through Headers at once: normalized, or rejected', () => {
    const odd = textResponse('{}', { status: 200, headers: { 'Content-Type': ' application/json ' } });
    expect(responseHeaders(odd)).toEqual({ 'content-type': 'application/json' });
    expect(() => textResponse('{}', { status: 200, headers: { vary: 'a\r\nx-injected: 1' } })).toThrow(TypeError);
    const plain = new Response(null, {
      headers: [
        ['set-cookie', 'a=1'],
        ['set-cookie', 'b=2'],
        ['vary', 'x'],
      ],
    });
    expect(responseHeaders(plain)).toEqual({ vary: 'x', 'set-cookie': ['a=1', 'b=2'] });
  });

  it('a shared record checked once is frozen and handed to bridges as it is; one that is not plain is still normalized', () => {
    const shared = plainHeaders({ 'content-type': 'application/json', etag: '"x1"' });
    expect(Object.isFrozen(shared)).toBe(true); // nothing can change it after its one check
    expect(responseHeaders(textResponse('{}', { status: 200, headers: shared }))).toBe(shared);
    expect(responseHeaders(textResponse('{}', { status: 200, headers: shared }))).toBe(shared);

    const odd = plainHeaders({ 'Content-Type': ' application/json ' });
    expect(Object.isFrozen(odd)).toBe(false);
    expect(responseHeaders(textResponse('{}', { status: 200, headers: odd }))).toEqual({
      'content-type': 'application/json',
    });
    const unsafe = plainHeaders({ vary: 'a\r\nx-injected: 1' });
    expect(() => textResponse('{}', { status: 200, headers: unsafe })).toThrow(TypeError);
  });

  it('a lazy response answers every member of Response as a real one with the same status and body does', async () => {
    const response = textResponse('{"ok":true}', { status: 404, headers: { 'content-type': 'application/json' } });
    const real = new Response('{"ok":true}', { status: 404, headers: { 'content-type': 'application/json' } });
    expect(response).toBeInstanceOf(Response);
    expect(Object.prototype.toString.call(response)).toBe('[object Response]');
    // Every getter of Response (Node 22's `bytes()` and whatever comes next is forwarded to the real response).
    for (const [key, descriptor] of Object.entries(Object.getOwnPropertyDescriptors(Response.prototype))) {
      if (!descriptor.get || key === 'headers' || key === 'body') continue;
      expect({ key, value: response[key as keyof Response] }).toEqual({ key, value: real[key as keyof Response] });
    }
    expect(await response.clone().json()).toEqual({ ok: true });
    expect(() => textResponse('x', { status: 600, headers: {} })).toThrow(RangeError); // as new Response() would
  });

  it('a lazy response passes through a promise as itself (no then)', async () => {
    const response = textResponse('x', { status: 200, headers: {} });
    expect(await Promise.resolve(response)).toBe(response);
  });
});
