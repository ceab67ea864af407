import { isA2AError } from '@a2a/core';
import { afterEach, describe, expect, it } from 'vitest';
import { A2AClient, type ProtocolBinding } from '../src/index.js';
import { cardFor, clientFor, invoke, sseEvent, unaryBody, validTask } from './hostile-fixtures.js';
import { endless, type HostileServer, hostileServer } from './hostile-server.js';

// An agent that is broken or hostile on purpose: bodies and SSE events that never end, redirects to other origins,
// results of the wrong shape, silence. Every call ends with an A2AError, and the connection is let go. Limits and
// timeouts are small here (options), so each test takes milliseconds; bad-agent.e2e.test.ts has the milder cases.

const servers: HostileServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});
const serve = async (...args: Parameters<typeof hostileServer>) => {
  const server = await hostileServer(...args);
  servers.push(server);
  return server;
};

const errorOf = (p: Promise<unknown>) =>
  p.then(
    (value) => ({ resolved: value }),
    (e: unknown) => e,
  );
/** `[type, message]` of the A2AError `p` rejects with (or what it did instead). */
const failure = async (p: Promise<unknown>) => {
  const e = await errorOf(p);
  return isA2AError(e) ? [e.type, e.message] : ['not an A2AError', e];
};
const sse = { 'content-type': 'text/event-stream' };
const json = { 'content-type': 'application/json' };

describe('size limits', () => {
  it('an SSE data line that never ends is InvalidAgentResponse at maxEventBytes, and the client hangs up', async () => {
    const server = await serve((_req, res) => {
      res.writeHead(200, sse).write('data: ');
      endless(res, 'x'.repeat(16 * 1024));
    });
    const client = clientFor(server.url, 'JSONRPC', { maxEventBytes: 64 * 1024 });
    const [type, message] = await failure(invoke(client, 'SendStreamingMessage'));
    expect([type, message]).toEqual(['InvalidAgentResponse', expect.stringMatching(/SSE event larger than 65536/)]);
    await expect.poll(() => server.hungUp).toBe(1);
  });

  it('so does an event of many data lines without the blank line that ends it (HTTP+JSON)', async () => {
    const server = await serve((_req, res) => {
      res.writeHead(200, sse);
      endless(res, `data: ${'y'.repeat(1000)}\r\n`);
    });
    const client = clientFor(server.url, 'HTTP+JSON', { maxEventBytes: 64 * 1024 });
    expect(await failure(invoke(client, 'SubscribeToTask'))).toEqual([
      'InvalidAgentResponse',
      expect.stringMatching(/SSE event larger/),
    ]);
    await expect.poll(() => server.hungUp).toBe(1);
  });

  it('so does a whole event over the limit that arrives in one piece', async () => {
    const server = await serve((_req, res) => res.writeHead(200, sse).end(`data: "${'e'.repeat(16 * 1024)}"\n\n`));
    const client = clientFor(server.url, 'HTTP+JSON', { maxEventBytes: 8 * 1024 });
    expect(await failure(invoke(client, 'SendStreamingMessage'))).toEqual([
      'InvalidAgentResponse',
      expect.stringMatching(/SSE event larger than 8192/),
    ]);
  });

  it('the default limit (1 MiB) holds an endless event too', async () => {
    const server = await serve((_req, res) => {
      res.writeHead(200, sse).write('data: ');
      endless(res, 'x'.repeat(64 * 1024));
    });
    expect(await failure(invoke(clientFor(server.url, 'JSONRPC'), 'SendStreamingMessage'))).toEqual([
      'InvalidAgentResponse',
      expect.stringMatching(/SSE event larger than 1048576 bytes/),
    ]);
  });

  it('keep-alive comments and small events never add up to the event limit, whatever the line ends', async () => {
    const server = await serve((_req, res) => {
      res.writeHead(200, sse);
      for (let i = 0; i < 300; i++) res.write(i % 2 ? ': keep-alive\r\n\r\n' : ': keep-alive\n\n');
      const working = { statusUpdate: { taskId: 't1', contextId: 'c1', status: { state: 'TASK_STATE_WORKING' } } };
      for (let i = 0; i < 100; i++) res.write(sseEvent('JSONRPC', working, i + 1).replaceAll('\n', '\r'));
      res.end(sseEvent('JSONRPC', { task: validTask() }, 101));
    });
    const events = await invoke(clientFor(server.url, 'JSONRPC', { maxEventBytes: 1024 }), 'SendStreamingMessage');
    expect(events).toHaveLength(101);
  });

  it('a JSON body that never ends is InvalidAgentResponse at maxBodyBytes, and the client hangs up', async () => {
    for (const binding of ['JSONRPC', 'HTTP+JSON'] as const) {
      const server = await serve((_req, res) => {
        res.writeHead(200, json).write('{"jsonrpc":"2.0","id":1,"result":{"task":{"id":"');
        endless(res, 'z'.repeat(16 * 1024));
      });
      const client = clientFor(server.url, binding, { maxBodyBytes: 100_000 });
      expect(await failure(invoke(client, 'GetTask'))).toEqual([
        'InvalidAgentResponse',
        expect.stringMatching(/body larger than 100000 bytes/),
      ]);
      await expect.poll(() => server.hungUp).toBe(1);
    }
  });

  it('an error body and a card are bounded the same way', async () => {
    const server = await serve((_req, res) => {
      res.writeHead(500, json).write('{"error":{"message":"');
      endless(res, 'e'.repeat(16 * 1024));
    });
    const [type, message] = await failure(A2AClient.connect(server.url, { maxBodyBytes: 50_000 }));
    expect([type, message]).toEqual(['InvalidAgentResponse', expect.stringMatching(/body larger than 50000/)]);
    expect(await failure(invoke(clientFor(server.url, 'HTTP+JSON', { maxBodyBytes: 50_000 }), 'ListTasks'))).toEqual([
      'InvalidAgentResponse',
      expect.stringMatching(/body larger/),
    ]);
  });
});

describe('redirects', () => {
  const movedTo = (target: (req: { url?: string | undefined }) => string, status = 307) =>
    serve((req, res) => {
      if (req.url?.startsWith('/moved/')) {
        res.writeHead(200, json).end(unaryBody('JSONRPC', { task: validTask() }));
        return;
      }
      res.writeHead(status, { location: target(req) }).end();
    });

  it('a 307 or 308 to another origin is not followed: the other origin receives nothing', async () => {
    const elsewhere = await serve();
    for (const status of [307, 308]) {
      const server = await movedTo(() => `${elsewhere.url}/steal`, status);
      const client = clientFor(server.url, 'JSONRPC', { headers: { 'x-api-key': 'secret' } });
      expect(await failure(invoke(client, 'SendMessage'))).toEqual([
        'InvalidAgentResponse',
        expect.stringMatching(/redirected to http:\/\/127\.0\.0\.1:\d+\/steal: another origin, not followed/),
      ]);
      // Another port of the same host is another origin, and so is another scheme.
      expect(await failure(invoke(client, 'SendStreamingMessage'))).toEqual([
        'InvalidAgentResponse',
        expect.any(String),
      ]);
    }
    expect(elsewhere.requests).toEqual([]);
  });

  it('nor is the card fetch redirected to another origin', async () => {
    const elsewhere = await serve();
    const server = await movedTo(() => `${elsewhere.url}/.well-known/agent-card.json`, 302);
    const error = await failure(A2AClient.connect(server.url, { headers: { authorization: 'Bearer secret' } }));
    expect(error).toEqual(['InvalidAgentResponse', expect.stringMatching(/another origin/)]);
    expect(elsewhere.requests).toEqual([]);
  });

  it('a same-origin 307/308 is followed with the body and headers; 301/302/303 only for GET', async () => {
    const server = await movedTo((req) => `/moved${req.url}`);
    const client = clientFor(server.url, 'JSONRPC', { headers: { 'x-api-key': 'secret' } });
    expect(await invoke(client, 'SendMessage')).toEqual({ task: validTask() });
    expect(server.requests).toEqual(['POST /a2a', 'POST /moved/a2a']);
    expect(server.lastHeaders?.['x-api-key']).toBe('secret');

    server.answer = (req, res) => {
      if (req.url?.startsWith('/moved/')) res.writeHead(200, json).end(JSON.stringify(validTask()));
      else res.writeHead(302, { location: `/moved${req.url}` }).end();
    };
    const rest = clientFor(server.url, 'HTTP+JSON');
    expect(await invoke(rest, 'GetTask')).toEqual(validTask());
    expect(await failure(invoke(rest, 'CancelTask'))).toEqual([
      'InvalidAgentResponse',
      expect.stringMatching(/HTTP 302 would turn POST to GET/),
    ]);
  });

  it("redirects: 'none' follows none, and a loop ends after 5", async () => {
    const server = await movedTo((req) => `/moved${req.url}`);
    const none = clientFor(server.url, 'JSONRPC', { redirects: 'none' });
    expect(await failure(invoke(none, 'GetTask'))).toEqual([
      'InvalidAgentResponse',
      expect.stringMatching(/redirects are off/),
    ]);
    server.answer = (req, res) => res.writeHead(308, { location: `${req.url}x` }).end();
    expect(await failure(invoke(clientFor(server.url, 'JSONRPC'), 'GetTask'))).toEqual([
      'InvalidAgentResponse',
      expect.stringMatching(/more than 5 redirects/),
    ]);
    expect(server.requests).toHaveLength(1 + 6);
  });
});

describe('results of the wrong shape are InvalidAgentResponse, not a TypeError or data', () => {
  const answering = async (binding: ProtocolBinding, body: string, headers = json) => {
    const server = await serve((_req, res) => res.writeHead(200, headers).end(body));
    return clientFor(server.url, binding);
  };

  it('SendMessage answering null, 5 or "x"; GetTask answering null', async () => {
    for (const result of [null, 5, 'x', [], { task: {} }, { task: validTask(), message: validTask() }]) {
      const client = await answering('JSONRPC', unaryBody('JSONRPC', result));
      expect(await failure(invoke(client, 'SendMessage'))).toEqual(['InvalidAgentResponse', expect.any(String)]);
      expect(await failure(invoke(client, 'GetTask'))).toEqual(['InvalidAgentResponse', expect.any(String)]);
    }
  });

  it('stream events {task:{}} and {statusUpdate:{}}, over both bindings', async () => {
    for (const binding of ['JSONRPC', 'HTTP+JSON'] as const) {
      for (const event of [{ task: {} }, { statusUpdate: {} }, { artifactUpdate: { taskId: 't', contextId: 'c' } }]) {
        const client = await answering(binding, sseEvent(binding, event), sse);
        expect(await failure(invoke(client, 'SendStreamingMessage'))).toEqual([
          'InvalidAgentResponse',
          'Invalid agent response: a stream event that is not a StreamResponse',
        ]);
      }
    }
  });

  it('a card with an interface that is not an object, or has no binding, beside a good one', async () => {
    const [good] = cardFor('http://x').supportedInterfaces;
    for (const odd of [null, { url: 'http://y/' }]) {
      const server = await serve((_req, res) =>
        res.writeHead(200, json).end(JSON.stringify({ name: 'Odd', supportedInterfaces: [odd, good] })),
      );
      expect(await failure(A2AClient.connect(server.url))).toEqual(['InvalidAgentResponse', expect.any(String)]);
    }
  });
});

describe('timeouts', () => {
  const silent = () => serve(() => {}); // accepts the request, never answers

  it('a unary call the agent never answers is Unavailable after timeoutMs (client or call option)', async () => {
    const server = await silent();
    const client = clientFor(server.url, 'JSONRPC', { timeoutMs: 50 });
    expect(await failure(invoke(client, 'GetTask'))).toEqual([
      'Unavailable',
      'The agent did not answer GetTask within 50 ms',
    ]);
    const perCall = clientFor(server.url, 'HTTP+JSON', { timeoutMs: 0 });
    expect(await failure(perCall.getTask({ id: 't' }, { timeoutMs: 40 }))).toEqual([
      'Unavailable',
      'The agent did not answer GetTask within 40 ms',
    ]);
    await expect.poll(() => server.hungUp).toBe(2);
  });

  it('a body that stops halfway is Unavailable: the whole unary answer is bounded', async () => {
    const server = await serve((_req, res) => res.writeHead(200, json).write('{"jsonrpc":"2.0","id":1,"res'));
    const client = clientFor(server.url, 'JSONRPC', { timeoutMs: 60 });
    expect(await failure(invoke(client, 'SendMessage'))).toEqual(['Unavailable', expect.any(String)]);
  });

  it('connect() to an agent that never answers is Unavailable', async () => {
    const server = await silent();
    expect(await failure(A2AClient.connect(server.url, { timeoutMs: 50 }))).toEqual([
      'Unavailable',
      'The agent did not answer GetAgentCard within 50 ms',
    ]);
  });

  it('a stream that goes silent is Unavailable after idleTimeoutMs without reconnection', async () => {
    const working = { statusUpdate: { taskId: 't1', contextId: 'c1', status: { state: 'TASK_STATE_WORKING' } } };
    const server = await serve((_req, res) => res.writeHead(200, sse).write(sseEvent('JSONRPC', working)));
    const client = clientFor(server.url, 'JSONRPC', { idleTimeoutMs: 1000 });
    const stream = client.sendStreamingMessage(
      { message: { messageId: 'm', role: 'ROLE_USER', parts: [{ text: 'x' }] } },
      { idleTimeoutMs: 50 },
    );
    const seen: unknown[] = [];
    const error = await failure(
      (async () => {
        for await (const event of stream) seen.push(event);
      })(),
    );
    expect(error).toEqual(['Unavailable', 'The agent sent nothing on SendStreamingMessage for 50 ms']);
    expect(seen).toEqual([working]);
    await expect.poll(() => server.hungUp).toBe(1);
  });

  it('a silent stream counts as broken: it resumes with SubscribeToTask and Last-Event-ID', async () => {
    const working = { statusUpdate: { taskId: 't1', contextId: 'c1', status: { state: 'TASK_STATE_WORKING' } } };
    const server = await serve((req, res) => {
      res.writeHead(200, sse);
      if (req.headers['last-event-id'] === '1') res.end(sseEvent('HTTP+JSON', { task: validTask() }, 2));
      else res.write(sseEvent('HTTP+JSON', working, 1)); // then silence
    });
    const client = clientFor(server.url, 'HTTP+JSON', {
      idleTimeoutMs: 50,
      reconnect: { attempts: 1, delayMs: 0 },
    });
    const stream = client.sendStreamingMessage({
      message: { messageId: 'm', role: 'ROLE_USER', parts: [{ text: 'x' }] },
    });
    const seen: unknown[] = [];
    for await (const event of stream) seen.push(event);
    expect(seen).toEqual([working, { task: validTask() }]);
    expect(stream.reconnects).toBe(1);
    expect(server.requests).toEqual(['POST /a2a/message:stream', 'POST /a2a/tasks/t1:subscribe']);
  });

  it('an abort of the caller is still its own reason, not a timeout', async () => {
    const server = await silent();
    const client = clientFor(server.url, 'JSONRPC', { timeoutMs: 10_000 });
    const controller = new AbortController();
    const call = client.getTask({ id: 't' }, { signal: controller.signal });
    controller.abort(new Error('mine'));
    expect(await errorOf(call)).toEqual(new Error('mine'));
  });
});
