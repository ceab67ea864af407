// `@a2a/core/adapter`: the one home of the helpers framework adapters share, beyond the handler's own API
// (semver-covered, like `.`): the setup checks, the public origin behind a proxy, the refusals a bridge hands the
// handler, the bridge's side channel, and `ToWebRequestOptions`, what each adapter's `requestSource` gathers.
// Runtime-neutral: it loads no `node:` module, so an adapter for Fetch hosts (Workers, Bun, Deno) may import it.
// Adapters for Node's req/res also use `@a2a/core/node` (`nodeWebRequest`, `writeNodeResponse`, Node-only helpers).
// Guide: docs/writing-an-adapter.md.
export { basePathUnderPrefix, checkMountable } from './http/check-mountable.js';
export { forwardedOrigin } from './http/forwarded-origin.js';
export {
  carryRefusal,
  finishedEventStream,
  isPrepared,
  plainResponse,
  responseFrames,
} from './http/prepared.js';
export { bufferedWebRequest } from './node/buffered-request.js';
export { FORBIDDEN_METHODS, requestRefusal } from './node/request-target.js';
export type { ToWebRequestOptions } from './node/web-request-options.js';
