import { readFileSync } from 'node:fs';
import { canonicalizeAgentCard, generateAgentCardSignature, verifyAgentCardSignature } from '@a2a-js/sdk';
import { decodeProtectedHeader, type JWK } from 'jose';
import { describe, expect, it } from 'vitest';
import { canonicalAgentCard } from '../src/card/canonical-card.js';
import { signAgentCard, verifyAgentCard } from '../src/index.js';

/** Fixed keys, cards, canonical forms and signatures (see the file's $comment for where each comes from). */
const vectors = JSON.parse(readFileSync(new URL('./fixtures/card-signing-vectors.json', import.meta.url), 'utf8'));
const ed = vectors.keys['vector-ed25519'] as { private: JWK; public: JWK };
const es = vectors.keys['vector-es256'] as { private: JWK; public: JWK };
const publicKeys = [
  { ...ed.public, kid: 'vector-ed25519' },
  { ...es.public, kid: 'vector-es256' },
];
const { defaults, nonAscii } = vectors;
const withSignatures = (card: object, ...signatures: unknown[]) => ({ ...card, signatures });
/** The official SDK's verifier, with our vector keys. */
const sdkVerifier = verifyAgentCardSignature(async (kid) => {
  const key = publicKeys.find((k) => k.kid === kid);
  if (!key) throw new Error(`no key ${kid}`);
  return key;
});

describe('signed agent cards: canonical form and interoperability (test vectors)', () => {
  it('canonicalises without proto defaults, exactly as the official JS SDK does', () => {
    expect(canonicalAgentCard(defaults.card)).toBe(defaults.canonical);
    expect(canonicalizeAgentCard(defaults.card)).toBe(defaults.canonical);
    // What goes: empty strings, empty lists and maps, implicit false/0, fields outside the v1.0 card, signatures.
    // What stays: the capabilities' explicit false, and false/0 inside a Struct (extension params).
    expect(defaults.canonical).toContain('"streaming":false');
    expect(defaults.canonical).toContain('"params":{"enabled":false,"retries":0}');
    expect(defaults.canonical).not.toMatch(/""|\[\]|\{\}|"required"|notInTheSchema|signatures/);
    expect(canonicalAgentCard(nonAscii.card)).toBe(nonAscii.canonical);
  });

  it('signs with alg and kid in the protected header; the Ed25519 vector signature comes out byte for byte', async () => {
    const signed = await signAgentCard(defaults.card, [{ kid: 'vector-ed25519', privateKey: ed.private }]);
    expect(signed.signatures).toEqual([defaults.ours]);
    expect(decodeProtectedHeader(defaults.ours)).toEqual({ alg: 'EdDSA', typ: 'JOSE', kid: 'vector-ed25519' });
    expect(await verifyAgentCard(signed, publicKeys)).toMatchObject({ valid: true, kid: 'vector-ed25519' });
  });

  it("the official JS SDK verifies our signatures, and we verify the SDK's", async () => {
    // Ours, the vector and a fresh ES256 one, checked by the SDK's verifier.
    await expect(sdkVerifier(withSignatures(defaults.card, defaults.ours) as never)).resolves.toBeUndefined();
    const fresh = await signAgentCard(defaults.card, [{ kid: 'vector-es256', privateKey: es.private }]);
    await expect(sdkVerifier(fresh as never)).resolves.toBeUndefined();
    // The SDK's, the vector and a fresh one, checked by ours.
    expect(await verifyAgentCard(withSignatures(defaults.card, defaults.officialJsSdk), publicKeys)).toMatchObject({
      valid: true,
      kid: 'vector-es256',
    });
    const sdkSigner = generateAgentCardSignature(es.private, {
      alg: 'ES256',
      kid: 'vector-es256',
      typ: 'JOSE',
    });
    const sdkSigned = await sdkSigner(withSignatures(nonAscii.card) as never);
    expect(await verifyAgentCard(sdkSigned, publicKeys)).toMatchObject({ valid: true, kid: 'vector-es256' });
  });

  it("accepts the other forms signers use: the Python SDK's escaped non-ASCII and the spec example's", async () => {
    expect(nonAscii.pythonSdkPayload).not.toBe(nonAscii.canonical); // "f\u00fcr" where JCS writes "für"
    expect(await verifyAgentCard(withSignatures(nonAscii.card, nonAscii.pythonSdkSignature), publicKeys)).toMatchObject(
      { valid: true, kid: 'vector-ed25519' },
    );
    expect(
      await verifyAgentCard(withSignatures(defaults.card, defaults.specExampleSignature), publicKeys),
    ).toMatchObject({ valid: true, kid: 'vector-ed25519' });
  });

  it('rejects a changed card in every form, and a signature whose header names no kid', async () => {
    for (const signature of [defaults.ours, defaults.officialJsSdk, defaults.specExampleSignature]) {
      const tampered = withSignatures({ ...defaults.card, name: 'Someone else' }, signature);
      expect(await verifyAgentCard(tampered, publicKeys)).toMatchObject({
        valid: false,
        reason: expect.stringContaining('tampered'),
      });
    }
    const changedParams = structuredClone(defaults.card);
    changedParams.capabilities.extensions[0].params.enabled = true;
    expect(await verifyAgentCard(withSignatures(changedParams, defaults.ours), publicKeys)).toMatchObject({
      valid: false,
    });
    const noKid = { ...defaults.ours, protected: Buffer.from('{"alg":"EdDSA"}').toString('base64url') };
    expect(await verifyAgentCard(withSignatures(defaults.card, noKid), publicKeys)).toMatchObject({
      valid: false,
      reason: expect.stringContaining('must name alg and kid'),
    });
  });
});
