import { BinaryReader, WireType } from '@bufbuild/protobuf/wire';

/** What an error status carried in `grpc-status-details-bin` (a binary google.rpc.Status), as far as it is read. */
export interface StatusDetails {
  code: number;
  message: string;
  /** The `type_url` of every detail, in order. */
  types: string[];
  errorInfo?: { reason: string; domain: string; metadata: Record<string, string> };
  fieldViolations?: { field: string; description: string }[];
}

/** Field number → the values of a message's length-delimited and varint fields; others skipped. */
function fields(bytes: Uint8Array): Map<number, (Uint8Array | number)[]> {
  const out = new Map<number, (Uint8Array | number)[]>();
  const reader = new BinaryReader(bytes);
  while (reader.pos < reader.len) {
    const [number, type] = reader.tag();
    let value: Uint8Array | number | undefined;
    if (type === WireType.LengthDelimited) value = reader.bytes();
    else if (type === WireType.Varint) value = reader.int32();
    else reader.skip(type, number);
    if (value !== undefined) out.set(number, [...(out.get(number) ?? []), value]);
  }
  return out;
}

const text = (value: Uint8Array | number | undefined) =>
  value instanceof Uint8Array ? new TextDecoder().decode(value) : '';
const bytesOf = (map: Map<number, (Uint8Array | number)[]>, n: number) =>
  (map.get(n) ?? []).filter((v): v is Uint8Array => v instanceof Uint8Array);

/**
 * Reads google.rpc.Status { int32 code = 1; string message = 2; repeated Any details = 3 } with its ErrorInfo
 * { reason = 1; domain = 2; map<string, string> metadata = 3 } and BadRequest { repeated FieldViolation = 1 }
 * (googleapis' google/rpc/*.proto field numbers); throws on bytes that are not a message.
 */
export function readStatusDetails(bytes: Uint8Array): StatusDetails {
  const status = fields(bytes);
  const out: StatusDetails = {
    code: Number(status.get(1)?.[0] ?? 0),
    message: text(status.get(2)?.[0]),
    types: [],
  };
  for (const any of bytesOf(status, 3)) {
    const parts = fields(any);
    const type = text(parts.get(1)?.[0]);
    const value = bytesOf(parts, 2)[0] ?? new Uint8Array();
    out.types.push(type);
    if (type.endsWith('/google.rpc.ErrorInfo')) {
      const info = fields(value);
      const metadata: Record<string, string> = {};
      for (const entry of bytesOf(info, 3)) {
        const kv = fields(entry);
        metadata[text(kv.get(1)?.[0])] = text(kv.get(2)?.[0]);
      }
      out.errorInfo = { reason: text(info.get(1)?.[0]), domain: text(info.get(2)?.[0]), metadata };
    } else if (type.endsWith('/google.rpc.BadRequest')) {
      out.fieldViolations = bytesOf(fields(value), 1).map((v) => {
        const violation = fields(v);
        return { field: text(violation.get(1)?.[0]), description: text(violation.get(2)?.[0]) };
      });
    }
  }
  return out;
}
