import { A2AClient, isA2AError, type ProtocolBinding, resolveAgentCard } from '@a2a/client';
import type { AgentCard } from '@a2a/core';

// ACTS client tests (spec §10) reach the SDK's client through the `tck-client-parse` behaviour: the message carries a
// data part `{operation, wire_payload}`, and the answer is what @a2a/client made of that payload. The client runs
// for real (its wires, its envelope and error handling, its shape checks) over a fetch that answers with the payload
// instead of opening a socket: parsing the JSON by hand here would test this file, not the client.

/** Never dialled: the injected fetch answers first. `.invalid` (RFC 6761) cannot resolve should it ever be. */
const BASE_URL = 'http://acts-client-parse.invalid';

export interface ClientParseRequest {
  operation: string;
  payload: unknown;
}

/** `{operation, wire_payload}` from a data part, if it is one. */
export function clientParseRequest(data: unknown): ClientParseRequest | undefined {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return undefined;
  const { operation, wire_payload: payload } = data as Record<string, unknown>;
  return typeof operation === 'string' ? { operation, payload } : undefined;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A JSON-RPC response rather than a bare HTTP+JSON body: it names its protocol. */
const isEnvelope = (payload: unknown): boolean => isObject(payload) && payload.jsonrpc === '2.0';

/**
 * The HTTP status a bare payload travels with: a google.rpc.Status body (`{error: {code: 404, …}}`) names its own,
 * as an HTTP+JSON agent would send it; anything else is a 200.
 */
function statusOf(payload: unknown): number {
  const code = isObject(payload) && isObject(payload.error) ? payload.error.code : undefined;
  return typeof code === 'number' && code >= 400 && code <= 599 ? code : 200;
}

/**
 * A fetch answering every request with `payload`. A JSON-RPC payload gets the request's `id`, as an agent's answer
 * would: the corpus's payloads carry fixed ids the client cannot have chosen.
 */
function answering(payload: unknown): typeof fetch {
  return async (_input, init) => {
    let body = payload;
    if (isEnvelope(payload) && typeof init?.body === 'string') {
      const sent = JSON.parse(init.body) as { id?: unknown };
      body = { ...(payload as object), id: sent.id };
    }
    return new Response(JSON.stringify(body), {
      status: isEnvelope(payload) ? 200 : statusOf(payload),
      headers: { 'content-type': 'application/json' },
    });
  };
}

/** A card offering one v1.0 interface on `binding`, so the client takes the wire the payload was written for. */
const scaffoldCard = (binding: ProtocolBinding): AgentCard => ({
  name: 'acts-client-parse',
  description: 'The agent a client-parse payload stands for',
  version: '1.0.0',
  supportedInterfaces: [{ url: BASE_URL, protocolBinding: binding, protocolVersion: '1.0' }],
  capabilities: { extendedAgentCard: true },
  defaultInputModes: ['text/plain'],
  defaultOutputModes: ['text/plain'],
  skills: [],
});

/** An error the client raised, shaped like the JSON-RPC error it stands for (`{error: {code, message}}`). */
function asError(error: unknown): Record<string, unknown> {
  if (isA2AError(error)) return { error: { code: error.code, message: error.message, type: error.type } };
  return { error: { message: error instanceof Error ? error.message : String(error) } };
}

type Call = (fetch: typeof globalThis.fetch, client: () => A2AClient) => Promise<unknown>;

/** The client call each ACTS abstract operation stands for (the unary ones). */
const CALLS: Record<string, Call> = {
  get_agent_card: (fetch) => resolveAgentCard(BASE_URL, { fetch }),
  get_extended_agent_card: (_fetch, client) => client().getExtendedAgentCard(),
  send_message: (_fetch, client) =>
    client().sendMessage({
      message: { messageId: 'acts-client-parse', role: 'ROLE_USER', parts: [{ text: 'client parse' }] },
    }),
  get_task: (_fetch, client) => client().getTask({ id: 'acts-client-parse' }),
  list_tasks: (_fetch, client) => client().listTasks({}),
  cancel_task: (_fetch, client) => client().cancelTask({ id: 'acts-client-parse' }),
};

export const CLIENT_PARSE_OPERATIONS = Object.keys(CALLS);

/**
 * What @a2a/client parsed from `payload` for `operation` (an ACTS abstract operation), shaped as ACTS's assertion
 * root for it (§4.2): `{task}` or `{message}` for send_message, the Task for get_task, the card for the card
 * operations; `{error: {code, message}}` when the client refused the payload or surfaced the agent's error.
 * `undefined` for an operation this behaviour does not run (the streaming ones).
 */
export async function parseWithClient(operation: string, payload: unknown): Promise<unknown> {
  const call = Object.hasOwn(CALLS, operation) ? CALLS[operation] : undefined;
  if (!call) return undefined;
  const fetch = answering(payload);
  // The wire the payload was written for: a JSON-RPC envelope, or a bare HTTP+JSON body.
  const binding: ProtocolBinding = isEnvelope(payload) ? 'JSONRPC' : 'HTTP+JSON';
  try {
    return await call(fetch, () => new A2AClient(scaffoldCard(binding), { fetch, reconnect: false }));
  } catch (error) {
    return asError(error);
  }
}
