import type { JsonRpcId } from './responses.js';

/**
 * A JSON-RPC success answer's text before its result, `{"jsonrpc":"2.0","id":<id>,"result":`, made once per call:
 * a stream's events are then one `JSON.stringify` of the event each, written into it, instead of an envelope object
 * and a walk of it per event (docs/performance.md, "Hot-path tricks"). `undefined` for an id JSON leaves out.
 */
export function resultHead(id: JsonRpcId): string | undefined {
  const idJson = JSON.stringify(id) as string | undefined;
  return idJson === undefined ? undefined : `{"jsonrpc":"2.0","id":${idJson},"result":`;
}

/** `JSON.stringify({ jsonrpc: '2.0', id, result })`, the same text, through `head` ({@link resultHead} of `id`). */
export function resultEnvelope(head: string | undefined, id: JsonRpcId, result: unknown): string {
  const json = head === undefined ? undefined : (JSON.stringify(result) as string | undefined);
  return json === undefined ? JSON.stringify({ jsonrpc: '2.0', id, result }) : `${head}${json}}`;
}
