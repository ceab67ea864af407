export type { CardProblem, CardReport, SignatureStatus } from './card-check.js';
export { createPlayground, type PlaygroundOptions } from './playground.js';
export type { RemoteFetch, RemoteOptions } from './remote.js';
