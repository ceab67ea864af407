import type { PushSerializer } from '../push/push-sender.js';
import type { TaskPushNotificationConfig } from '../schemas/push-config.js';
import { toStreamResponse } from '../server/stream-response.js';
import { toV03StreamResult } from './v03-translate.js';

/**
 * A push body serializer that sends v0.3 webhook bodies (bare kind-tagged objects, `application/json`) to the
 * configs `isV03` picks, and the v1.0 StreamResponse (`application/a2a+json`) to the others.
 */
export function v03PushSerializer(isV03: (config: TaskPushNotificationConfig) => boolean): PushSerializer {
  return (record, config) => {
    const response = toStreamResponse(record);
    if (!response) return undefined;
    return isV03(config)
      ? { body: JSON.stringify(toV03StreamResult(response)), contentType: 'application/json' }
      : { body: JSON.stringify(response), contentType: 'application/a2a+json' };
  };
}
