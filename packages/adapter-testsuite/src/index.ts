export { type AdapterSuitesOptions, defineAdapterSuites } from './adapter-suites.js';
export { type AdversarialOptions, defineAdversarialSuite, KNOWN_BRIDGE_CASES } from './adversarial.js';
/** The adversarial corpus's building blocks, for core's differential test of its generated validators. */
export { junk, setPath, TEMPLATES, toJson } from './adversarial-cases.js';
export { defineBadInputCases, expectA2AError, nested } from './bad-input.js';
export {
  type Client,
  client,
  type EventuallyOptions,
  eventually,
  type Reply,
  read,
  sse,
  userMessage,
  within,
} from './client.js';
export {
  describeOnFetchRuntimes,
  FETCH_RUNTIMES,
  type FetchRuntime,
  type FetchRuntimeHost,
  type FetchRuntimeHostOptions,
} from './fetch-runtimes.js';
export {
  createFixture,
  FIXTURE_CARD,
  FIXTURE_KEEPALIVE_MS,
  FIXTURE_MAX_BODY,
  type Fixture,
  type FixtureStores,
  SECURED_CARD,
} from './fixture.js';
export { defineGoldenWireCases } from './golden.js';
export { type AdapterHarness, type HarnessStartOptions, type StartedServer, testCaller } from './harness.js';
export { closeServer, type Listening, type ListenOptions, listen, originOf } from './listen.js';
export { nodeHarness } from './node-harness.js';
export { RawConnection, type RawRequest, type RawResponse } from './raw-http.js';
export { defineAdapterConformanceSuite } from './suite.js';
