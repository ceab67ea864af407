/** The response header listing the extensions a request activated (lower case, as the handler writes it). */
const HEADER = 'a2a-extensions';

/**
 * Lists `uri` in, or leaves it out of, `A2A-Extensions` in a response's headers that are not built yet (the
 * per-request object the handler builds its response from, so the change shows when it is). Only an executor that
 * changes the set pays for the parse.
 */
export function echoExtension(headers: Record<string, string>, uri: string, on: boolean): void {
  const current = headers[HEADER];
  const list = current ? current.split(',').map((s) => s.trim()) : [];
  const at = list.indexOf(uri);
  if (on === at >= 0) return;
  if (on) list.push(uri);
  else list.splice(at, 1);
  if (list.length > 0) headers[HEADER] = list.join(', ');
  else delete headers[HEADER];
}
