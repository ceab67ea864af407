import { randomUUID } from 'node:crypto';
import type { CallProbe, CheckContext, Interface } from '../context.js';
import type { Answer } from '../http.js';

/** A task id no agent has: the read-only checks ask for it. */
export const unknownTaskId = (): string => `a2a-check-unknown-${randomUUID()}`;

/** A JSON-RPC call to the interface (its `tenant` copied into params, spec §8.3.2), id 1. */
export function rpc(
  ctx: CheckContext,
  iface: Interface,
  method: string,
  params: Record<string, unknown> | undefined,
  probe: CallProbe = {},
): Promise<Answer> {
  const withTenant = iface.tenant && params ? { tenant: iface.tenant, ...params } : params;
  return ctx.call(iface.url, {
    method: 'POST',
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, ...(withTenant && { params: withTenant }) }),
    ...probe,
    headers: { 'Content-Type': 'application/json', ...probe.headers },
  });
}

/** An HTTP+JSON call: `path` under the interface URL (and its tenant, spec §11.3), JSON body when given. */
export function rest(
  ctx: CheckContext,
  iface: Interface,
  method: string,
  path: string,
  body?: unknown,
  probe: CallProbe = {},
): Promise<Answer> {
  const base = iface.url.replace(/\/+$/, '');
  const tenant = iface.tenant ? `/${encodeURIComponent(iface.tenant)}` : '';
  return ctx.call(`${base}${tenant}${path}`, {
    method,
    ...(body !== undefined && { body: JSON.stringify(body) }),
    ...probe,
    headers: { ...(body !== undefined && { 'Content-Type': 'application/a2a+json' }), ...probe.headers },
  });
}
