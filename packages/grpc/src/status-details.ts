import type { A2AError } from '@a2a/core';
import { ERROR_DOMAIN } from '@a2a/core/internal';
import { BinaryWriter } from '@bufbuild/protobuf/wire';

const ERROR_INFO_TYPE = 'type.googleapis.com/google.rpc.ErrorInfo';
const BAD_REQUEST_TYPE = 'type.googleapis.com/google.rpc.BadRequest';

/**
 * The binary `google.rpc.Status` for `grpc-status-details-bin`: the code, the message, an `ErrorInfo` (reason,
 * domain, metadata) and, for validation errors, a `BadRequest` naming the fields. Written with the wire writer:
 * three small messages do not justify generating googleapis' protos.
 */
export function statusDetails(code: number, error: A2AError): Uint8Array {
  const status = new BinaryWriter().uint32(8).int32(code).uint32(18).string(error.message);
  status.uint32(26).bytes(any(ERROR_INFO_TYPE, errorInfo(error)));
  if (error.fieldViolations?.length) status.uint32(26).bytes(any(BAD_REQUEST_TYPE, badRequest(error)));
  return status.finish();
}

// google.protobuf.Any { string type_url = 1; bytes value = 2; }
const any = (typeUrl: string, value: Uint8Array) =>
  new BinaryWriter().uint32(10).string(typeUrl).uint32(18).bytes(value).finish();

// google.rpc.ErrorInfo { string reason = 1; string domain = 2; map<string, string> metadata = 3; }
function errorInfo(error: A2AError): Uint8Array {
  const info = new BinaryWriter().uint32(10).string(error.reason).uint32(18).string(ERROR_DOMAIN);
  for (const [key, value] of Object.entries(error.metadata ?? {})) {
    info.uint32(26).bytes(new BinaryWriter().uint32(10).string(key).uint32(18).string(value).finish());
  }
  return info.finish();
}

// google.rpc.BadRequest { repeated FieldViolation field_violations = 1; } FieldViolation { field = 1; description = 2; }
function badRequest(error: A2AError): Uint8Array {
  const out = new BinaryWriter();
  for (const v of error.fieldViolations ?? []) {
    out.uint32(10).bytes(new BinaryWriter().uint32(10).string(v.field).uint32(18).string(v.description).finish());
  }
  return out.finish();
}
