import type { A2AHttpHandler, HandleOptions } from '../src/index.js';
import { sseReader } from './helpers.js';

/**
 * JSON-RPC and REST calls through `a2a.fetch` (no port): each answers its status, headers and parsed body; `stream`
 * answers the SSE response's headers and a reader of its events' data.
 */
export function fetchClient(a2a: A2AHttpHandler, base = 'http://agent.test') {
  let id = 0;
  const request = (path: string, body: unknown, headers: Record<string, string> = {}, method = 'POST') =>
    new Request(`${base}${path}`, {
      method,
      headers: body === undefined ? headers : { 'content-type': 'application/json', ...headers },
      ...(body !== undefined && { body: JSON.stringify(body) }),
    });
  const parse = async (response: Response) => ({
    status: response.status,
    headers: response.headers,
    body: (await response.json()) as any,
  });
  const rpcBody = (method: string, params: unknown) => ({ jsonrpc: '2.0', id: ++id, method, params });
  return {
    rpc: async (method: string, params: unknown, headers?: Record<string, string>, options?: HandleOptions) =>
      parse(await a2a.fetch(request('/', rpcBody(method, params), headers), options)),
    rest: async (method: string, path: string, body?: unknown, headers?: Record<string, string>) =>
      parse(await a2a.fetch(request(path, body, headers, method))),
    /** A JSON-RPC stream: the response headers, and each event's parsed `result`. */
    async stream(method: string, params: unknown, headers?: Record<string, string>) {
      const response = await a2a.fetch(request('/', rpcBody(method, params), headers));
      const reader = sseReader(response);
      return {
        headers: response.headers,
        async next(): Promise<any> {
          const event = await reader.next();
          return event && JSON.parse(event.data).result;
        },
        async rest(): Promise<any[]> {
          return (await reader.all()).map((e) => JSON.parse(e.data).result);
        },
        cancel: () => reader.cancel(),
      };
    },
  };
}
