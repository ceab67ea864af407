import { defaultPushSerializer, type PushSerializer } from '../push/push-sender.js';
import type { TaskPushNotificationConfig } from '../schemas/push-config.js';

/**
 * A push body serializer that sends v0.3 webhook bodies (bare kind-tagged objects, `application/json`) to the configs
 * `isV03` picks, whatever wire registered them, and the default body to the others.
 */
export function v03PushSerializer(isV03: (config: TaskPushNotificationConfig) => boolean): PushSerializer {
  return (record, config) =>
    defaultPushSerializer(record, isV03(config) ? { ...config, protocolVersion: '0.3' } : config);
}
