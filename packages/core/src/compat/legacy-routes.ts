import type { LegacyVersion } from './shape.js';

// How the handler tells a request of an older wire from a v1.0 one: the JSON-RPC method names and the v0.2 card path,
// kept apart from the wires themselves (legacy-methods.ts, v02-extended-card.ts), which load at their first request
// (docs/performance.md, "Footprint"). legacy-routes.test.ts checks that this table and the method tables agree.

/** Method name -> the wire it belongs to; v0.1 and v0.3 share tasks/get, tasks/cancel and tasks/resubscribe (0.3). */
const VERSIONS: Readonly<Record<string, LegacyVersion>> = {
  'message/send': '0.3',
  'message/stream': '0.3',
  'tasks/get': '0.3',
  'tasks/cancel': '0.3',
  'tasks/resubscribe': '0.3',
  'tasks/pushNotificationConfig/set': '0.3',
  'tasks/pushNotificationConfig/get': '0.3',
  'tasks/pushNotificationConfig/list': '0.3',
  'tasks/pushNotificationConfig/delete': '0.3',
  'agent/getAuthenticatedExtendedCard': '0.3',
  'tasks/send': '0.1',
  'tasks/sendSubscribe': '0.1',
  'tasks/pushNotification/set': '0.1',
  'tasks/pushNotification/get': '0.1',
};

/** Which older wire a JSON-RPC method name belongs to (`undefined`: none). */
export const legacyVersionOf = (method: string): LegacyVersion | undefined =>
  Object.hasOwn(VERSIONS, method) ? VERSIONS[method] : undefined;

/** Every legacy method name (for the consistency test). */
export const LEGACY_METHOD_NAMES: readonly string[] = Object.keys(VERSIONS);

/** The names both v0.1 and v0.3 have: header-less calls on a task a v0.1 client named answer in v0.1 shapes. */
export const SHARED_METHOD_NAMES: ReadonlySet<string> = new Set(['tasks/get', 'tasks/cancel', 'tasks/resubscribe']);

/** v0.2's authenticated extended card, under the handler's mount (served by v02-extended-card.ts). */
export const V02_EXTENDED_CARD_PATH = '/agent/authenticatedExtendedCard';
