import type { A2AError } from '../../errors.js';
import type { JsonRpcVersionRouter } from '../../http/json-rpc.js';
import type { RequestUrl } from '../../http/request-url.js';
import type { HeaderInit } from '../../http/responses.js';
import type { StreamSettings } from '../../http/stream.js';
import type { OperationEnv } from '../../server/operations.js';

// Dialects: wires described by pages that no official A2A version matches, served on request (`dialects` option of
// createA2AHandler) and translated at the edge onto the same engine, like the older versions.

/** The dialects one handler can serve besides the official versions. */
export const DIALECTS = ['sessions', 'paraphrase'] as const;
export type DialectName = (typeof DIALECTS)[number];

/** The settings a dialect route is served with (those of the v1.0 routes). */
export type DialectSettings = StreamSettings & { maxBodyBytes: number; maxJsonDepth: number; headers: HeaderInit };

/** One request a dialect recognised by method and path (relative to the REST mount). */
export interface DialectRoute {
  /** Answers the request; errors are answered in the dialect's own shape. Never throws. */
  serve(request: Request, url: RequestUrl, env: OperationEnv, settings: DialectSettings): Promise<Response>;
  /** A refusal made before `serve` (bad host, caller not authenticated), in the dialect's error shape. */
  fail(error: A2AError, headers: HeaderInit): Response;
}

export interface Dialect {
  /** The route for a method and path, if the path is one of the dialect's. */
  match?(method: string, path: string): DialectRoute | undefined;
  /** JSON-RPC calls the dialect answers (`undefined`: not one of its methods). */
  jsonRpc?: JsonRpcVersionRouter;
  /** Graceful shutdown (the handler's `close()`): open streams of the dialect's own end, new ones are refused. */
  close?(): void;
}

/** Checks the `dialects` option at setup: an array of known names, each once. */
export function checkDialects(value: unknown): DialectName[] {
  if (value === undefined) return [];
  const known = DIALECTS as readonly string[];
  if (!Array.isArray(value)) {
    throw new TypeError(`createA2AHandler: dialects must be an array of names (${known.join(', ')})`);
  }
  for (const name of value) {
    if (typeof name !== 'string' || !known.includes(name)) {
      throw new TypeError(
        `createA2AHandler: unknown dialect ${JSON.stringify(name)} in dialects (known: ${known.join(', ')})`,
      );
    }
  }
  return [...new Set(value as DialectName[])];
}

/** The first route any of the dialects has for the request. */
export function matchDialects(dialects: readonly Dialect[], method: string, path: string): DialectRoute | undefined {
  for (const dialect of dialects) {
    const route = dialect.match?.(method, path);
    if (route) return route;
  }
  return undefined;
}

/** JSON-RPC routers tried in order; the first that answers wins. */
export function chainJsonRpcRouters(routers: (JsonRpcVersionRouter | undefined)[]): JsonRpcVersionRouter | undefined {
  const present = routers.filter((r): r is JsonRpcVersionRouter => r !== undefined);
  if (present.length <= 1) return present[0];
  return async (call, env, settings) => {
    for (const router of present) {
      const response = await router(call, env, settings);
      if (response) return response;
    }
    return undefined;
  };
}
