export * from './agent-card.js';
export * from './message.js';
export { bool, bytes, httpUrl, int32, protoEnum, protoMessage, struct, timestamp } from './proto-json.js';
export * from './push-config.js';
export * from './requests.js';
export * from './task.js';
