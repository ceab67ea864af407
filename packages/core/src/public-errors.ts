// `@a2a/core/errors`: the protocol's error table, `A2AError` and `isA2AError` alone (semver-covered, the same class
// as `@a2a/core`'s). For code that only calls agents, such as `@a2a/client`: it loads neither the engine nor Zod, and
// no `node:` module, so a browser bundle takes the error table and nothing else of core.
export {
  A2A_ERRORS,
  A2AError,
  type A2AErrorOptions,
  type A2AErrorType,
  type FieldViolation,
  isA2AError,
} from './errors.js';
