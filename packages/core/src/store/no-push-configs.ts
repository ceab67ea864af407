import { A2AError } from '../errors.js';
import type { PushConfigStore } from './task-store.js';

/**
 * The push config store of an agent whose card does not declare push notifications: push operations are refused with
 * PushNotificationNotSupported before they reach a store, so a task store without push methods needs no other one.
 * Reads find nothing; a write (which the engine never makes) is refused the same way.
 */
export const noPushConfigs: PushConfigStore = {
  savePushConfig: async () => {
    throw new A2AError('PushNotificationNotSupported', 'Push notifications are not supported by this agent');
  },
  getPushConfig: async () => undefined,
  listPushConfigs: async () => [],
  deletePushConfig: async () => {},
};
