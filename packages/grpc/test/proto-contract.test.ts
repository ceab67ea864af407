import { readFileSync } from 'node:fs';
import { OPERATIONS } from '@a2a/core/internal';
import { describe, expect, it } from 'vitest';
import { A2AService } from '../src/gen/lf/a2a/v1/a2a_pb.js';
import official from './fixtures/a2a-v1.0.1.fingerprint.json' with { type: 'json' };
import { fingerprint } from './proto-fingerprint.js';

// The fixture is the fingerprint (names, numbers, types; no text) of the specification's a2a.proto at v1.0.1. With
// A2A_SPEC_PROTO=<path to that file> the test also fingerprints the official file itself, e.g.
//   git --git-dir=<a2aproject/A2A clone> show v1.0.1:specification/a2a.proto > /tmp/a2a.proto
const ours = fingerprint(readFileSync(new URL('../proto/lf/a2a/v1/a2a.proto', import.meta.url), 'utf8'));

describe('proto/lf/a2a/v1/a2a.proto is the A2A v1.0.1 contract', () => {
  it('has the official package, service, methods, messages, field numbers and enums', () => {
    expect(ours).toEqual(official);
  });

  it.skipIf(!process.env.A2A_SPEC_PROTO)('matches the official a2a.proto (A2A_SPEC_PROTO)', () => {
    const spec = fingerprint(readFileSync(process.env.A2A_SPEC_PROTO ?? '', 'utf8'));
    expect(ours).toEqual(spec);
    expect(official).toEqual(spec);
  });

  it('the generated code is up to date with the proto, and every RPC has an operation', () => {
    const generated = Object.fromEntries(
      A2AService.methods.map((m) => [
        m.name,
        `${m.input.typeName.replace('lf.a2a.v1.', '')} -> ${m.methodKind === 'server_streaming' ? 'stream ' : ''}${m.output.typeName.replace('lf.a2a.v1.', '')}`,
      ]),
    );
    expect(generated).toEqual(ours.services.A2AService);
    expect(A2AService.typeName).toBe('lf.a2a.v1.A2AService');
    expect(Object.keys(OPERATIONS).sort()).toEqual(Object.keys(generated).sort());
  });
});
