import type { PushConfigStore, TaskPushNotificationConfig } from '@a2a/core';
import type { PushNotificationStore } from '@a2a-js/sdk/server';
import { ServerCallContext } from '@a2a-js/sdk/server';
import { fromSdkPushConfig, toSdkPushConfig } from './sdk-codec.js';

/**
 * An `@a2a-js/sdk` 1.x `PushNotificationStore` as our push config store. The engine checks that the caller owns the
 * task before any push config call, so the SDK store is used under one scope of its own.
 */
export function fromSdkPushStore(store: PushNotificationStore): PushConfigStore {
  const scope = new ServerCallContext();
  const list = async (taskId: string): Promise<TaskPushNotificationConfig[]> =>
    (await store.load(taskId, scope)).map(fromSdkPushConfig);
  return {
    savePushConfig: (config) => store.save(config.taskId, scope, toSdkPushConfig(config)),
    getPushConfig: async (taskId, id) => (await list(taskId)).find((config) => config.id === id),
    listPushConfigs: list,
    deletePushConfig: (taskId, id) => store.delete(taskId, scope, id),
  };
}
