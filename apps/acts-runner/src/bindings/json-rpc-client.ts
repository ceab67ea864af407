import { isRecord } from '../assertion-engine.js';
import { errorInfoReason, type WireError } from '../error-table.js';
import type { OperationName } from '../grammar.js';
import {
  type BindingClient,
  type CallOptions,
  type CallResult,
  METHODS,
  type StreamOptions,
  type StreamResult,
  toRequest,
} from './binding.js';
import { fetchCard } from './card.js';
import { httpRequest, sseRequest } from './http-transport.js';

let nextId = 1;

/** The JSON-RPC 2.0 binding: POST to the interface URL, results unwrapped from the envelope (ACTS §12.4). */
export function jsonRpcClient(url: string, cardUrl: string): BindingClient {
  const envelope = (operation: OperationName, params: Record<string, unknown>) => ({
    jsonrpc: '2.0',
    id: `acts-${nextId++}`,
    method: METHODS[operation],
    params: toRequest(operation, params),
  });
  const headers = (options: CallOptions) => ({ 'content-type': 'application/json', ...options.headers });
  return {
    name: 'jsonrpc',
    async call(operation, params, options): Promise<CallResult> {
      if (operation === 'get_agent_card') return fetchCard(cardUrl, options);
      const answer = await httpRequest(url, {
        method: 'POST',
        headers: headers(options),
        body: envelope(operation, params),
      });
      const body = answer.json;
      if (isRecord(body) && isRecord(body.error))
        return {
          ok: false,
          status: answer.status,
          error: fromJsonRpcError(body.error, answer.status),
          headers: answer.headers,
        };
      if (answer.status !== 200 || !isRecord(body) || !('result' in body))
        return {
          ok: false,
          status: answer.status,
          error: { httpStatus: answer.status, message: answer.text.slice(0, 500) },
          headers: answer.headers,
        };
      return { ok: true, status: answer.status, body: body.result, headers: answer.headers };
    },
    async stream(operation, params, options: StreamOptions): Promise<StreamResult> {
      const answer = await sseRequest(
        url,
        { method: 'POST', headers: headers(options), body: envelope(operation, params) },
        options.timeoutMs,
        options.maxEvents,
      );
      if (answer.plain) {
        const body = answer.plain.json;
        const error =
          isRecord(body) && isRecord(body.error)
            ? fromJsonRpcError(body.error, answer.status)
            : { httpStatus: answer.status, message: answer.plain.text.slice(0, 500) };
        return { status: answer.status, events: [], error };
      }
      const events: Record<string, unknown>[] = [];
      for (const { data } of answer.events) {
        if (isRecord(data) && isRecord(data.error))
          return { status: answer.status, events, error: fromJsonRpcError(data.error, answer.status) };
        if (isRecord(data) && isRecord(data.result)) events.push(data.result);
        else
          return {
            status: answer.status,
            events,
            error: { message: `not a JSON-RPC response: ${JSON.stringify(data)}` },
          };
      }
      return { status: answer.status, events, cut: answer.cut };
    },
    close() {},
  };
}

export function fromJsonRpcError(error: Record<string, unknown>, httpStatus: number): WireError {
  const out: WireError = { httpStatus, details: error.data };
  if (typeof error.code === 'number') out.jsonRpcCode = error.code;
  if (typeof error.message === 'string') out.message = error.message;
  const reason = errorInfoReason(error.data);
  if (reason) out.reason = reason;
  return out;
}
