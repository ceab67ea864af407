export { type CardSigningOptions, type CardVariant, VersionedCardRoutes } from './card-routes.js';
export {
  type CardSigningKey,
  type CardVerification,
  type CardVerificationKeys,
  canonicalAgentCard,
  signAgentCard,
  verifyAgentCard,
} from './card-signing.js';
export { checkServedVersion, jsonRpcWire, SERVED_VERSIONS, type VersionPolicy } from './negotiate.js';
export type { LegacyVersion } from './shape.js';
export { toV01Message, toV01Part, V01View } from './v01-translate.js';
export {
  fromV03AgentCard,
  toSupersetAgentCard,
  toV03AgentCard,
  toV03SecurityScheme,
  V03_PROTOCOL_VERSION,
} from './v03-card.js';
export { v03PushSerializer } from './v03-push.js';
export {
  fromV03Artifact,
  fromV03Message,
  fromV03PushConfig,
  fromV03StreamResult,
  fromV03Task,
  toV03Artifact,
  toV03Message,
  toV03Part,
  toV03PushConfig,
  toV03SendResult,
  toV03State,
  toV03Status,
  toV03StreamResult,
  toV03Task,
} from './v03-translate.js';
export type * from './v03-types.js';
