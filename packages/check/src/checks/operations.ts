import type { CheckContext, Interface } from '../context.js';
import type { Answer } from '../http.js';
import { rest, rpc } from './calls.js';
import { rpcEnvelope } from './expect-error.js';

export type Operation = 'send' | 'get' | 'cancel' | 'stream' | 'list';

/** An operation's answer read the same way on either binding: its result, or its error's code. */
export interface Outcome {
  binding: 'JSONRPC' | 'HTTP+JSON';
  answer: Answer;
  result?: unknown;
  /** JSON-RPC `error.code`, or the HTTP+JSON ErrorInfo reason (else the HTTP status). */
  error?: number | string;
}

const METHODS: Record<Operation, string> = {
  send: 'SendMessage',
  get: 'GetTask',
  cancel: 'CancelTask',
  stream: 'SendStreamingMessage',
  list: 'ListTasks',
};

/** The interface the `--send` checks use: JSON-RPC when the run checks it, else HTTP+JSON. */
export function sendInterface(ctx: CheckContext): { iface: Interface; binding: Outcome['binding'] } | undefined {
  const jsonrpc = ctx.iface('jsonrpc');
  if (jsonrpc) return { iface: jsonrpc, binding: 'JSONRPC' };
  const http = ctx.iface('http+json');
  return http ? { iface: http, binding: 'HTTP+JSON' } : undefined;
}

/** Calls one operation; `params` is the request message (`{message}` or `{id}`). */
export async function operate(
  ctx: CheckContext,
  target: { iface: Interface; binding: Outcome['binding'] },
  op: Operation,
  params: Record<string, unknown>,
): Promise<Outcome> {
  const maxEvents = op === 'stream' ? 50 : 1;
  if (target.binding === 'JSONRPC') {
    const answer = await rpc(ctx, target.iface, METHODS[op], params, { maxEvents });
    const envelope = rpcEnvelope(answer) as { result?: unknown; error?: { code?: number } } | undefined;
    return {
      binding: 'JSONRPC',
      answer,
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
  if (answer.status >= 200 && answer.status < 300) return { binding: 'HTTP+JSON', answer, result: answer.json };
  const details = (answer.json as { error?: { details?: { reason?: unknown }[] } } | undefined)?.error?.details;
  const reason = Array.isArray(details) ? details.find((d) => typeof d?.reason === 'string')?.reason : undefined;
  return { binding: 'HTTP+JSON', answer, error: typeof reason === 'string' ? reason : answer.status };
}
