// `@a2a/core/adapter`: for authors of framework adapters, beyond the handler's own API (semver-covered, like `.`).
// Runtime-neutral: it loads no `node:` module, so an adapter for Fetch hosts (Workers, Bun, Deno) may import it.
// Adapters for Node's req/res use `@a2a/core/node` (`nodeWebRequest`, `writeNodeResponse`). Guide:
// docs/writing-an-adapter.md.
export { basePathUnderPrefix, checkMountable } from './http/check-mountable.js';
export { forwardedOrigin } from './http/forwarded-origin.js';
export { carryRefusal, isPrepared, plainResponse } from './http/prepared.js';
export { bufferedWebRequest } from './node/buffered-request.js';
