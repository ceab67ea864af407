import type { CheckContext, Interface } from '../context.js';
import type { Answer } from '../http.js';
import { rest, rpc } from './calls.js';
import { described, describedGrpc, rpcEnvelope } from './expect-error.js';

export type Operation = 'send' | 'get' | 'cancel' | 'stream' | 'list';

/** An operation's answer read the same way on any binding: its result, or its error's code. */
export interface Outcome {
  binding: 'JSONRPC' | 'HTTP+JSON' | 'GRPC';
  /** What came back, for messages. */
  described: string;
  /** The HTTP answer (JSON-RPC and HTTP+JSON). */
  answer?: Answer;
  result?: unknown;
  /** A streaming operation's events (JSON-RPC: the envelopes' text; HTTP+JSON: the payloads' text; gRPC: messages). */
  events?: unknown[];
  /** JSON-RPC `error.code`, or the HTTP+JSON / gRPC ErrorInfo reason (else the HTTP status or gRPC code name). */
  error?: number | string;
}

const METHODS: Record<Operation, string> = {
  send: 'SendMessage',
  get: 'GetTask',
  cancel: 'CancelTask',
  stream: 'SendStreamingMessage',
  list: 'ListTasks',
};

/** The interface the `--send` checks use: JSON-RPC when the run checks it, else HTTP+JSON, else gRPC. */
export function sendInterface(ctx: CheckContext): { iface: Interface; binding: Outcome['binding'] } | undefined {
  const jsonrpc = ctx.iface('jsonrpc');
  if (jsonrpc) return { iface: jsonrpc, binding: 'JSONRPC' };
  const http = ctx.iface('http+json');
  if (http) return { iface: http, binding: 'HTTP+JSON' };
  const grpc = ctx.iface('grpc');
  return grpc ? { iface: grpc, binding: 'GRPC' } : undefined;
}

/** Calls one operation; `params` is the request message (`{message}` or `{id}`). */
export async function operate(
  ctx: CheckContext,
  target: { iface: Interface; binding: Outcome['binding'] },
  op: Operation,
  params: Record<string, unknown>,
): Promise<Outcome> {
  const maxEvents = op === 'stream' ? 50 : 1;
  if (target.binding === 'GRPC') {
    const answer = await ctx.grpc(target.iface, METHODS[op], params, { maxEvents, implicit: op === 'list' });
    const said = answer.undecodable ?? describedGrpc(answer);
    if (answer.code !== 0)
      return { binding: 'GRPC', described: said, error: answer.details?.errorInfo?.reason || answer.codeName };
    if (answer.undecodable) return { binding: 'GRPC', described: said, error: 'undecodable response' };
    return {
      binding: 'GRPC',
      described: said,
      ...(answer.result !== undefined && { result: answer.result }),
      ...(answer.events !== undefined && { events: answer.events }),
    };
  }
  if (target.binding === 'JSONRPC') {
    const answer = await rpc(ctx, target.iface, METHODS[op], params, { maxEvents });
    const envelope = rpcEnvelope(answer) as { result?: unknown; error?: { code?: number } } | undefined;
    return {
      binding: 'JSONRPC',
      described: described(answer),
      answer,
      ...(answer.events !== undefined && { events: answer.events }),
      ...(envelope?.result !== undefined && { result: envelope.result }),
      ...(envelope?.error !== undefined && { error: envelope.error.code ?? 'error without code' }),
    };
  }
  const id = encodeURIComponent(String(params.id));
  const query = new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)])).toString();
  const [method, path, body] =
    op === 'list'
      ? ['GET', `/tasks${query ? `?${query}` : ''}`, undefined]
      : op === 'send'
        ? ['POST', '/message:send', params]
        : op === 'stream'
          ? ['POST', '/message:stream', params]
          : op === 'get'
            ? ['GET', `/tasks/${id}`, undefined]
            : ['POST', `/tasks/${id}:cancel`, {}];
  const answer = await rest(ctx, target.iface, method, path, body, { maxEvents });
  const base = {
    binding: 'HTTP+JSON' as const,
    described: described(answer),
    answer,
    ...(answer.events !== undefined && { events: answer.events }),
  };
  if (answer.status >= 200 && answer.status < 300) return { ...base, result: answer.json };
  const details = (answer.json as { error?: { details?: { reason?: unknown }[] } } | undefined)?.error?.details;
  const reason = Array.isArray(details) ? details.find((d) => typeof d?.reason === 'string')?.reason : undefined;
  return { ...base, error: typeof reason === 'string' ? reason : answer.status };
}
