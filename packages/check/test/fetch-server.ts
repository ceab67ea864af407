import { once } from 'node:events';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { type Listening, listen } from '@a2a/adapter-testsuite';

/** A Fetch-style handler; `undefined` never answers (the hanging agent). */
export type FetchHandler = (request: Request) => Promise<Response | undefined>;

/** Serves a Fetch-style handler on 127.0.0.1, port 0: the broken agents are small functions over core's handler. */
export function serveFetch(handler: FetchHandler): Promise<Listening> {
  return listen((req: IncomingMessage, res: ServerResponse) => {
    void answer(req, res, handler).catch((error: unknown) => {
      res.statusCode = 500;
      res.end(String(error));
    });
  });
}

async function answer(req: IncomingMessage, res: ServerResponse, handler: FetchHandler): Promise<void> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) if (typeof value === 'string') headers.set(name, value);
  const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
  const request = new Request(`http://${req.headers.host}${req.url}`, {
    method: req.method ?? 'GET',
    headers,
    ...(hasBody && { body: Buffer.concat(chunks) }),
  });
  const response = await handler(request);
  if (!response) return; // hangs: the connection stays open until the server closes it
  res.writeHead(response.status, Object.fromEntries(response.headers));
  const reader = response.body?.getReader();
  for (let next = await reader?.read(); next && !next.done; next = await reader?.read()) {
    // An endless body (the hostile-server tests) stops when the client goes; writes wait for the socket to drain.
    if (res.destroyed) return void (await reader?.cancel());
    if (!res.write(next.value)) await Promise.race([once(res, 'drain'), once(res, 'close')]);
  }
  res.end();
}
