import { A2AError } from '../../errors.js';
import { isJsonContentType, jsonValue, readJsonBody } from '../../http/body.js';
import { isObject } from '../../is-object.js';
import type { DialectSettings } from './dialect.js';

/** A dialect request's JSON object body (`undefined` when empty): the same limits and checks as the v1.0 routes. */
export async function readObjectBody(
  request: Request,
  settings: DialectSettings,
): Promise<Record<string, unknown> | undefined> {
  const read = await readJsonBody(request, settings.maxBodyBytes);
  if ('text' in read && read.text.trim() === '') return undefined;
  if (!isJsonContentType(request.headers.get('content-type'))) {
    throw new A2AError('UnsupportedMediaType', 'Content-Type must be application/json');
  }
  const parsed = jsonValue(read, settings.maxJsonDepth);
  if (!isObject(parsed)) throw new A2AError('InvalidParams', 'Invalid params: the body must be a JSON object');
  return parsed;
}
