import type { A2AError } from '@a2a/core';
import { ERROR_DOMAIN } from '@a2a/core/internal';
import { BinaryWriter } from '@bufbuild/protobuf/wire';
import { clip } from './clip.js';

const ERROR_INFO_TYPE = 'type.googleapis.com/google.rpc.ErrorInfo';
const BAD_REQUEST_TYPE = 'type.googleapis.com/google.rpc.BadRequest';

/**
 * Budgets for the trailers an error ends a call with. Clients cap the header block (grpc-core 8 KiB by default, Node
 * 64 KiB) and one over it never delivers a status: the call fails with INTERNAL or hangs, and with it the channel.
 * `grpc-message` is percent-encoded (up to 3 characters a byte) and `grpc-status-details-bin` base64 (4 per 3), so
 * both together stay under ~6 KiB.
 */
export const MAX_MESSAGE_BYTES = 1024;
export const MAX_DETAILS_BYTES = 2048;
/** Each ErrorInfo metadata value and BadRequest field or description. */
const MAX_DETAIL_TEXT_BYTES = 256;
const MAX_VIOLATIONS = 8;

/**
 * The binary `google.rpc.Status` for `grpc-status-details-bin`: the code, the message, an `ErrorInfo` (reason,
 * domain, metadata) and, for validation errors, a `BadRequest` naming the fields. Written with the wire writer:
 * three small messages do not justify generating googleapis' protos. Within MAX_DETAILS_BYTES: texts are clipped,
 * then the BadRequest, then the ErrorInfo metadata are dropped when still over.
 */
export function statusDetails(code: number, error: A2AError): Uint8Array {
  const message = clip(error.message, MAX_MESSAGE_BYTES);
  const attempts = [
    { metadata: true, violations: true },
    { metadata: true, violations: false },
    { metadata: false, violations: false },
  ];
  let bytes = new Uint8Array();
  for (const keep of attempts) {
    const status = new BinaryWriter().uint32(8).int32(code).uint32(18).string(message);
    status.uint32(26).bytes(any(ERROR_INFO_TYPE, errorInfo(error, keep.metadata)));
    if (keep.violations && error.fieldViolations?.length)
      status.uint32(26).bytes(any(BAD_REQUEST_TYPE, badRequest(error)));
    bytes = status.finish();
    if (bytes.length <= MAX_DETAILS_BYTES) break;
  }
  return bytes;
}

const text = (s: string) => clip(s, MAX_DETAIL_TEXT_BYTES);

// google.protobuf.Any { string type_url = 1; bytes value = 2; }
const any = (typeUrl: string, value: Uint8Array) =>
  new BinaryWriter().uint32(10).string(typeUrl).uint32(18).bytes(value).finish();

// google.rpc.ErrorInfo { string reason = 1; string domain = 2; map<string, string> metadata = 3; }
function errorInfo(error: A2AError, withMetadata: boolean): Uint8Array {
  const info = new BinaryWriter().uint32(10).string(error.reason).uint32(18).string(ERROR_DOMAIN);
  for (const [key, value] of withMetadata ? Object.entries(error.metadata ?? {}) : []) {
    info.uint32(26).bytes(new BinaryWriter().uint32(10).string(text(key)).uint32(18).string(text(value)).finish());
  }
  return info.finish();
}

// google.rpc.BadRequest { repeated FieldViolation field_violations = 1; } FieldViolation { field = 1; description = 2; }
function badRequest(error: A2AError): Uint8Array {
  const out = new BinaryWriter();
  for (const v of (error.fieldViolations ?? []).slice(0, MAX_VIOLATIONS)) {
    const violation = new BinaryWriter().uint32(10).string(text(v.field)).uint32(18).string(text(v.description));
    out.uint32(10).bytes(violation.finish());
  }
  return out.finish();
}
