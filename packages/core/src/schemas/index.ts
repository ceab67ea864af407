// `@a2a/core/schemas`: the Zod schemas of the A2A v1.0 protocol objects (proto-JSON input accepted, canonical output),
// for apps that validate A2A data themselves. The inferred types are also exported from `@a2a/core`.
export * from './agent-card.js';
export { MAX_ID_LENGTH } from './id.js';
export * from './message.js';
export * from './push-config.js';
export * from './requests.js';
export * from './task.js';
