import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { listen } from '@a2a/adapter-testsuite';
import { isA2AError } from '@a2a/core';
import { afterEach, describe, expect, it } from 'vitest';
import { A2AClient, type ProtocolBinding } from '../src/index.js';

// An "agent" that answers what each test scripts: proxies' HTML pages, broken JSON, broken SSE. The client must turn
// each into a clear A2AError (or the network error), never hang or crash.
type Answer = (req: IncomingMessage, res: ServerResponse) => void;

let server: { url: string; close: () => Promise<void> } | undefined;
const closed: string[] = [];
afterEach(async () => {
  await server?.close();
  server = undefined;
  closed.length = 0;
});

async function badAgent(answer: Answer, binding: ProtocolBinding = 'JSONRPC') {
  const http = createServer((req, res) => {
    res.on('close', () => closed.push(String(res.getHeader('content-type'))));
    if (req.url === '/.well-known/agent-card.json') {
      res.setHeader('content-type', 'application/json');
      const url = `http://${req.headers.host}/a2a`;
      res.end(
        JSON.stringify({
          name: 'Bad',
          supportedInterfaces: [{ url, protocolBinding: binding, protocolVersion: '1.0' }],
        }),
      );
      return;
    }
    answer(req, res);
  });
  server = await listen(http);
  return A2AClient.connect(server.url, { bindings: [binding], reconnect: false });
}

const errorOf = (p: Promise<unknown>) =>
  p.then(
    () => {
      throw new Error('expected a rejection');
    },
    (e: unknown) => e,
  );
const typeOf = async (p: Promise<unknown>) => {
  const e = await errorOf(p);
  return isA2AError(e) ? e.type : `not an A2AError: ${String(e)}`;
};
const send = (text: string) => ({ message: { messageId: 'm', role: 'ROLE_USER' as const, parts: [{ text }] } });
const drain = async (stream: AsyncIterable<unknown>) => {
  for await (const _ of stream);
};

describe('answers that are not A2A', () => {
  it('an HTML error page from a proxy is the HTTP status as an A2AError', async () => {
    const client = await badAgent((_req, res) => {
      res.writeHead(502, { 'content-type': 'text/html' }).end('<html>Bad gateway</html>');
    });
    const error = await errorOf(client.getTask({ id: 't' }));
    expect(isA2AError(error) && [error.type, error.message]).toEqual(['Internal', 'HTTP 502']);
    expect(await typeOf(client.sendMessage(send('x')))).toBe('Internal');
  });

  it('a 200 that is not JSON-RPC is InvalidAgentResponse', async () => {
    const client = await badAgent((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' }).end('<html>login</html>');
    });
    expect(await typeOf(client.getTask({ id: 't' }))).toBe('InvalidAgentResponse');
    expect(await typeOf(drain(client.sendStreamingMessage(send('x'))))).toBe('InvalidAgentResponse');
  });

  it('SendMessage answering neither a task nor a message is InvalidAgentResponse', async () => {
    const client = await badAgent((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"jsonrpc":"2.0","id":1,"result":{"ok":true}}');
    });
    expect(await typeOf(client.sendMessage(send('x')))).toBe('InvalidAgentResponse');
  });

  it('an SSE event that is not JSON, or not a StreamResponse, ends the stream with InvalidAgentResponse', async () => {
    for (const data of ['{not json', '{"jsonrpc":"2.0","id":1,"result":{"hello":1}}']) {
      const client = await badAgent((_req, res) => {
        res.setHeader('content-type', 'text/event-stream');
        res.write(`id: 1\ndata: ${data}\n\n`); // and the stream stays open
      });
      expect(await typeOf(drain(client.sendStreamingMessage(send('x'))))).toBe('InvalidAgentResponse');
      await expect.poll(() => closed.includes('text/event-stream')).toBe(true); // the client hung up
      await server?.close();
      closed.length = 0;
    }
  });

  it('an error event in the middle of a stream is thrown as its A2AError, without reconnecting', async () => {
    let requests = 0;
    const client = await badAgent((_req, res) => {
      requests++;
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const task = { id: 't1', contextId: 'c1', status: { state: 'TASK_STATE_WORKING' } };
      res.write(`id: 1\ndata: ${JSON.stringify({ jsonrpc: '2.0', id: 1, result: { task } })}\n\n`);
      const error = {
        code: -32603,
        message: 'Store unavailable',
        data: [
          { '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'UNAVAILABLE', domain: 'a2a-protocol.org' },
        ],
      };
      res.end(`event: error\ndata: ${JSON.stringify({ jsonrpc: '2.0', id: 1, error })}\n\n`);
    });
    const seen: unknown[] = [];
    const error = await errorOf(
      (async () => {
        for await (const event of client.sendStreamingMessage(send('x'))) seen.push(event);
      })(),
    );
    expect(seen).toHaveLength(1);
    expect(isA2AError(error) && [error.type, error.message]).toEqual(['Unavailable', 'Store unavailable']);
    expect(requests).toBe(1);
  });

  it('HTTP+JSON: a google.rpc.Status error event mid-stream is its A2AError', async () => {
    const client = await badAgent((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const status = {
        error: {
          code: 400,
          status: 'FAILED_PRECONDITION',
          message: 'no',
          details: [{ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'TASK_NOT_CANCELABLE' }],
        },
      };
      res.end(`event: error\ndata: ${JSON.stringify(status)}\n\n`);
    }, 'HTTP+JSON');
    expect(await typeOf(drain(client.sendStreamingMessage(send('x'))))).toBe('TaskNotCancelable');
  });

  it('a stream that ends before a final event, with reconnection off, is InvalidAgentResponse', async () => {
    const client = await badAgent((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const task = { id: 't1', contextId: 'c1', status: { state: 'TASK_STATE_WORKING' } };
      res.end(`id: 1\ndata: ${JSON.stringify({ jsonrpc: '2.0', id: 1, result: { task } })}\n\n`);
    });
    expect(await typeOf(drain(client.sendStreamingMessage(send('x'))))).toBe('InvalidAgentResponse');
  });
});

describe('cards that cannot be used', () => {
  const serveCard = async (status: number, body: string) => {
    const http = createServer((_req, res) => res.writeHead(status, { 'content-type': 'application/json' }).end(body));
    server = await listen(http);
    return server.url;
  };

  it('no card, a card that is not JSON, one without interfaces, one without a v1.0 interface', async () => {
    expect(await typeOf(A2AClient.connect(await serveCard(404, '')))).toBe('InvalidAgentResponse');
    await server?.close();
    expect(await typeOf(A2AClient.connect(await serveCard(200, '<html>')))).toBe('InvalidAgentResponse');
    await server?.close();
    expect(await typeOf(A2AClient.connect(await serveCard(200, '{"name":"x"}')))).toBe('InvalidAgentResponse');
    await server?.close();
    const v03 = {
      name: 'old',
      supportedInterfaces: [{ url: 'http://x/', protocolBinding: 'JSONRPC', protocolVersion: '0.3' }],
    };
    const error = await errorOf(A2AClient.connect(await serveCard(200, JSON.stringify(v03))));
    expect(isA2AError(error) && error.message).toMatch(/no v1\.0 interface .* JSONRPC 0\.3/);
  });

  it('a card behind authentication is Unauthenticated', async () => {
    const body = JSON.stringify({ error: { code: 401, status: 'UNAUTHENTICATED', message: 'sign in' } });
    expect(await typeOf(A2AClient.connect(await serveCard(401, body)))).toBe('Unauthenticated');
  });

  it('an unreachable agent is Unavailable, naming the URL and the cause (not a bare "fetch failed")', async () => {
    const url = await serveCard(200, '{}');
    await server?.close();
    server = undefined;
    const error = await errorOf(A2AClient.connect(url));
    expect(isA2AError(error) && error.type).toBe('Unavailable');
    expect((error as Error).message).toMatch(
      /^Could not reach the agent at http:\/\/127\.0\.0\.1:\d+\/\S*: ECONNREFUSED$/,
    );
    expect((error as Error).cause).toBeInstanceOf(TypeError); // fetch's own error, kept
  });
});
