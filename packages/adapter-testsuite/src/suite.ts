import { InMemoryTaskStore } from '@a2a/core';
import { describe } from 'vitest';
import { defineBadInputCases } from './bad-input.js';
import { defineBasePathCases } from './conformance/base-path.js';
import { defineCompressionCases } from './conformance/compression.js';
import { defineHttpEdgeCases } from './conformance/http-edges.js';
import { defineJsonRpcCases } from './conformance/json-rpc.js';
import { defineRestCases } from './conformance/rest.js';
import { defineSecurityCases } from './conformance/security.js';
import { BASE_PATH, type Setup, useServer } from './conformance/setup.js';
import { defineStreamFramingCases } from './conformance/stream-framing.js';
import { defineStreamingCases } from './conformance/streaming.js';
import { defineDialectBadInputCases } from './dialect-bad-input.js';
import { createFixture, SECURED_CARD } from './fixture.js';
import { defineGoldenWireCases } from './golden.js';
import type { AdapterHarness } from './harness.js';

const MOUNTS = ['', '/a2a'];

/**
 * The adapter conformance suite: every case runs for each mount prefix ('' and '/a2a') with the framework's body
 * parser off and on, plus streaming with compression on (skipped, with its reason, for a harness that declares
 * `noCompression`), plus security enforcement. No other opt-outs.
 */
export function defineAdapterConformanceSuite(harness: AdapterHarness): void {
  describe(`A2A adapter conformance: ${harness.name}`, () => {
    for (const mountPath of MOUNTS) {
      for (const bodyParser of [false, true]) {
        describe(`mount '${mountPath || '/'}', body parser ${bodyParser ? 'on' : 'off'}`, () => {
          const s = useServer(harness, { mountPath, bodyParser, compression: false });
          defineCases(s, mountPath);
        });
      }
      if (harness.noCompression === undefined) {
        describe(`mount '${mountPath || '/'}', compression on, body parser on`, () => {
          const s = useServer(harness, { mountPath, bodyParser: true, compression: true });
          defineCompressionCases(s);
        });
      } else {
        // Uncompressed, these cases would pass without testing anything: skipped, and the report says why.
        describe.skip(`mount '${mountPath || '/'}', compression on: skipped (${harness.noCompression})`, () => {
          defineCompressionCases({} as Setup);
        });
      }
      describe(`mount '${mountPath || '/'}', security schemes declared`, () => {
        const s = useServer(harness, { mountPath, bodyParser: true, compression: false }, () =>
          createFixture(SECURED_CARD),
        );
        defineSecurityCases(s, mountPath);
      });
    }
    describe(`handler basePath '${BASE_PATH}', adapter mounted at the root`, () => {
      const s = useServer(harness, { mountPath: '', bodyParser: true, compression: false }, () =>
        createFixture(undefined, { basePath: BASE_PATH }),
      );
      defineBasePathCases(s);
    });
    for (const bodyParser of [false, true]) {
      // The in-memory store as it is (the counting one's subscriptions cannot say what they have ready, so no stream
      // of theirs is ever finished when it is written).
      describe(`event stream framing (in-memory store), body parser ${bodyParser ? 'on' : 'off'}`, () => {
        const s = useServer(harness, { mountPath: '', bodyParser, compression: false }, () =>
          createFixture(undefined, { stores: { taskStore: new InMemoryTaskStore() } }),
        );
        defineStreamFramingCases(s, harness.streamsInOneWrite === true);
      });
    }
    defineGoldenWireCases(harness);
    defineBadInputCases(harness);
    defineDialectBadInputCases(harness);
  });
}

/** The cases every mount and body-parser setting runs, one area per file under `conformance/`. */
function defineCases(s: Setup, mountPath: string): void {
  defineJsonRpcCases(s);
  defineRestCases(s);
  defineHttpEdgeCases(s, mountPath);
  defineStreamingCases(s);
}
