import type { CallOptions, CallResult } from './binding.js';
import { httpRequest } from './http-transport.js';

/** get_agent_card on every binding: an HTTP GET of the well-known card (ACTS §4.1). */
export async function fetchCard(cardUrl: string, options: CallOptions): Promise<CallResult> {
  const answer = await httpRequest(cardUrl, {
    method: 'GET',
    headers: { accept: 'application/json', ...options.headers },
  });
  if (answer.status === 200 && answer.json !== undefined)
    return { ok: true, status: answer.status, body: answer.json, headers: answer.headers };
  return {
    ok: false,
    status: answer.status,
    error: { httpStatus: answer.status, message: answer.text.slice(0, 500) },
    headers: answer.headers,
  };
}
