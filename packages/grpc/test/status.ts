import type { Metadata, ServiceError } from '@grpc/grpc-js';
import protobuf from 'protobufjs';

// An independent reader of google.rpc.Status (protobufjs from the field numbers of google/rpc/*.proto), so the
// server's hand-written encoder is checked by a different implementation.
const root = protobuf.parse(`
  syntax = "proto3";
  package google.rpc;
  message Any { string type_url = 1; bytes value = 2; }
  message Status { int32 code = 1; string message = 2; repeated Any details = 3; }
  message ErrorInfo { string reason = 1; string domain = 2; map<string, string> metadata = 3; }
  message FieldViolation { string field = 1; string description = 2; }
  message BadRequest { repeated FieldViolation field_violations = 1; }
`).root;
const Status = root.lookupType('google.rpc.Status');

export interface DecodedStatus {
  code: number;
  message: string;
  errorInfo?: { reason: string; domain: string; metadata: Record<string, string> };
  fieldViolations?: { field: string; description: string }[];
}

export function statusOf(error: ServiceError | Metadata): DecodedStatus {
  const metadata = 'metadata' in error ? error.metadata : error;
  const bin = metadata.get('grpc-status-details-bin')[0];
  if (!(bin instanceof Buffer)) throw new Error('no grpc-status-details-bin');
  const status = Status.toObject(Status.decode(bin), { defaults: true }) as {
    code: number;
    message: string;
    details: { typeUrl: string; value: Uint8Array }[];
  };
  const out: DecodedStatus = { code: status.code, message: status.message };
  for (const detail of status.details) {
    const name = detail.typeUrl.replace('type.googleapis.com/', '');
    const type = root.lookupType(name);
    const value = type.toObject(type.decode(detail.value), { defaults: true });
    if (name === 'google.rpc.ErrorInfo') out.errorInfo = value as NonNullable<DecodedStatus['errorInfo']>;
    if (name === 'google.rpc.BadRequest') out.fieldViolations = (value as { fieldViolations: [] }).fieldViolations;
  }
  return out;
}
