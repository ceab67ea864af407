import { A2AError } from '@a2a/core';
import type { Metadata } from '@grpc/grpc-js';

/** The A2A versions this binding serves (v0.3's gRPC service is a different package, `a2a.v1`: not served). */
const SERVED = ['1.0'];

/** Every value of a metadata key, split at commas (several entries or one comma-separated entry). */
export function metadataList(metadata: Metadata, key: string): string[] {
  return metadata
    .get(key)
    .flatMap((value) => (typeof value === 'string' ? value.split(',') : []))
    .map((s) => s.trim())
    .filter(Boolean);
}

/** `a2a-version` as Major.Minor must be one this binding serves; absent means the current one. */
export function checkVersion(metadata: Metadata): void {
  const raw = metadataList(metadata, 'a2a-version')[0];
  if (raw === undefined) return;
  const match = /^v?(\d+)\.(\d+)/.exec(raw);
  const version = match ? `${Number(match[1])}.${Number(match[2])}` : raw;
  if (!SERVED.includes(version)) {
    throw new A2AError(
      'VersionNotSupported',
      `A2A version ${version} is not supported over gRPC (served: ${SERVED.join(', ')})`,
      { metadata: { requested: version, supported: SERVED.join(',') } },
    );
  }
}
