import { isRecord } from '../assertion-engine.js';
import { errorInfoReason, type WireError } from '../error-table.js';
import type { OperationName } from '../grammar.js';
import { type BindingClient, type CallResult, type StreamResult, toRequest } from './binding.js';
import { fetchCard } from './card.js';
import { type HttpAnswer, httpRequest, sseRequest } from './http-transport.js';

/** The HTTP+JSON (REST) binding of v1.0.1 (§11): routes under the interface URL, google.rpc.Status error bodies. */
export function httpJsonClient(baseUrl: string, cardUrl: string): BindingClient {
  const base = baseUrl.replace(/\/+$/, '');
  const route = (operation: OperationName, params: Record<string, unknown>) => {
    const request = toRequest(operation, params);
    const take = (key: string) => {
      const value = request[key];
      delete request[key];
      return encodeURIComponent(String(value ?? ''));
    };
    const query = () => {
      const search = new URLSearchParams();
      for (const [k, v] of Object.entries(request)) if (v !== undefined && v !== null) search.set(k, String(v));
      const s = search.toString();
      return s ? `?${s}` : '';
    };
    switch (operation) {
      case 'send_message':
        return { method: 'POST', path: '/message:send', body: request };
      case 'send_streaming_message':
        return { method: 'POST', path: '/message:stream', body: request };
      case 'get_task': {
        const id = take('id');
        return { method: 'GET', path: `/tasks/${id}${query()}` };
      }
      case 'list_tasks':
        return { method: 'GET', path: `/tasks${query()}` };
      case 'cancel_task': {
        const id = take('id');
        return { method: 'POST', path: `/tasks/${id}:cancel`, body: request };
      }
      case 'subscribe_to_task': {
        const id = take('id');
        return { method: 'GET', path: `/tasks/${id}:subscribe${query()}` };
      }
      case 'get_extended_agent_card':
        return { method: 'GET', path: '/extendedAgentCard' };
      case 'create_push_config': {
        const taskId = take('taskId');
        return { method: 'POST', path: `/tasks/${taskId}/pushNotificationConfigs`, body: request };
      }
      case 'get_push_config':
      case 'delete_push_config': {
        const taskId = take('taskId');
        const id = take('id');
        return {
          method: operation === 'get_push_config' ? 'GET' : 'DELETE',
          path: `/tasks/${taskId}/pushNotificationConfigs/${id}`,
        };
      }
      case 'list_push_configs': {
        const taskId = take('taskId');
        return { method: 'GET', path: `/tasks/${taskId}/pushNotificationConfigs${query()}` };
      }
      case 'get_agent_card':
        throw new Error('unreachable');
    }
  };
  return {
    name: 'rest',
    async call(operation, params, options): Promise<CallResult> {
      if (operation === 'get_agent_card') return fetchCard(cardUrl, options);
      const { method, path, body } = route(operation, params);
      const headers = {
        accept: 'application/json',
        ...(body ? { 'content-type': 'application/json' } : {}),
        ...options.headers,
      };
      const answer = await httpRequest(`${base}${path}`, { method, headers, body });
      if (answer.status >= 200 && answer.status < 300)
        return { ok: true, status: answer.status, body: answer.json ?? {}, headers: answer.headers };
      return { ok: false, status: answer.status, error: fromRestError(answer), headers: answer.headers };
    },
    async stream(operation, params, options): Promise<StreamResult> {
      const { method, path, body } = route(operation, params);
      const headers = { ...(body ? { 'content-type': 'application/json' } : {}), ...options.headers };
      const answer = await sseRequest(
        `${base}${path}`,
        { method, headers, body },
        options.timeoutMs,
        options.maxEvents,
      );
      if (answer.plain) return { status: answer.status, events: [], error: fromRestError(answer.plain) };
      const events: Record<string, unknown>[] = [];
      for (const { event, data } of answer.events) {
        if (event === 'error' || (isRecord(data) && isRecord(data.error)))
          return { status: answer.status, events, error: fromRestError({ ...answer, text: '', json: data }) };
        if (isRecord(data)) events.push(data);
      }
      return { status: answer.status, events, cut: answer.cut };
    },
    close() {},
  };
}

/** A REST error answer: `{error: {code, status, message, details}}` (google.rpc.Status JSON, v1.0.1 §11.6). */
export function fromRestError(answer: HttpAnswer): WireError {
  const out: WireError = { httpStatus: answer.status };
  const error = isRecord(answer.json) && isRecord(answer.json.error) ? answer.json.error : undefined;
  if (!error) {
    out.message = answer.text.slice(0, 500);
    return out;
  }
  if (typeof error.message === 'string') out.message = error.message;
  if (typeof error.status === 'string') out.grpcStatus = error.status;
  out.details = error.details;
  const reason = errorInfoReason(error.details);
  if (reason) out.reason = reason;
  return out;
}
