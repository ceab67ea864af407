// The root entry is the public API: an app's names only. Protocol schemas live in `@a2a/core/schemas`, the adapter
// authors' bridge pieces in `@a2a/core/adapter`, sibling packages' building blocks in `@a2a/core/internal`, and the
// error table alone (for clients) in `@a2a/core/errors`. A name added to the root, `/adapter` or `/errors` must be
// added here on purpose.
import { describe, expect, it } from 'vitest';
import * as adapter from '../src/adapter.js';
import * as root from '../src/index.js';
import * as internal from '../src/internal.js';
import * as errors from '../src/public-errors.js';
import * as schemas from '../src/schemas/index.js';

const ROOT = [
  'A2AError',
  'A2ARequestHandler',
  'A2A_ERRORS',
  'BODY_HASH_CLAIM',
  'BlockedAddressError',
  'ConcurrentModificationError',
  'INTERRUPTED_STATES',
  'InMemoryPushDeliveryStateStore',
  'InMemoryTaskStore',
  'InvalidPageTokenError',
  'InvalidTransitionError',
  'PushSender',
  'PushSigner',
  'PushUrlGuard',
  'SERVED_VERSIONS',
  'SIGNATURE_HEADER',
  'TERMINAL_STATES',
  'applyTaskEvent',
  'canTransition',
  'checkMountable', // for adapter authors too (also on /adapter and /node): runtime-neutral
  'consoleLogger',
  'copyTask',
  'createA2AHandler',
  'createPushSender',
  'createPushUrlValidator',
  'createRequestHandler',
  'defaultPushSerializer',
  'generatePushSigningKey',
  'isA2AError',
  'isInterrupted',
  'isTerminal',
  'newTask',
  'signAgentCard',
  'standardWebhooksSignature',
  'useOpenTelemetry',
  'verifyAgentCard',
  'viewTask',
];

const ADAPTER = [
  'FORBIDDEN_METHODS',
  'basePathUnderPrefix',
  'bufferedWebRequest',
  'carryRefusal',
  'checkMountable',
  'finishedEventStream',
  'forwardedOrigin',
  'isPrepared',
  'plainResponse',
  'requestRefusal',
  'responseFrames',
];

/** `@a2a/core/errors`: the root's own error names, nothing of the engine. */
const ERRORS = ['A2AError', 'A2A_ERRORS', 'isA2AError'];

describe('public API', () => {
  it('the root exports exactly the app-facing names', () => {
    expect(Object.keys(root).sort()).toEqual(ROOT);
  });

  it('@a2a/core/adapter exports exactly the adapter authors’ names, none of them also on /internal', () => {
    expect(Object.keys(adapter).sort()).toEqual(ADAPTER);
    for (const name of ADAPTER) expect(internal).not.toHaveProperty(name);
  });

  it('@a2a/core/errors exports exactly the error table, A2AError and isA2AError, the same objects as the root', () => {
    expect(Object.keys(errors).sort()).toEqual(ERRORS);
    expect(errors.A2AError).toBe(root.A2AError);
    expect(errors.A2A_ERRORS).toBe(root.A2A_ERRORS);
    expect(errors.isA2AError).toBe(root.isA2AError);
  });

  it('internals are off the root and reachable from @a2a/core/internal or /schemas', () => {
    for (const name of ['bool', 'int32', 'struct', 'protoEnum', 'protoMessage', 'V01View', 'toV03Task', 'OPERATIONS']) {
      expect(root).not.toHaveProperty(name);
      expect(internal).toHaveProperty(name);
    }
    for (const name of ['AgentCardSchema', 'MessageSchema', 'TaskSchema', 'StreamResponseSchema']) {
      expect(root).not.toHaveProperty(name);
      expect(schemas).toHaveProperty(name);
    }
  });
});
