import { A2AError } from '@a2a/core';
import type { DescMessage, DescMethod, JsonValue } from '@bufbuild/protobuf';
import { fromBinary, fromJson, toBinary, toJson } from '@bufbuild/protobuf';

/** A request as the deserializer hands it over: its proto JSON, or why it could not be read. */
export type DecodedRequest = { json: Record<string, unknown> } | { error: A2AError };

/**
 * Reads a request message into the proto JSON the bindings share (the v1.0 JSON data model), never throwing: a
 * throwing deserializer makes @grpc/grpc-js answer INTERNAL, which would blame the server for the client's bytes.
 */
export function decodeRequest(schema: DescMessage, bytes: Uint8Array): DecodedRequest {
  let message: ReturnType<typeof fromBinary>;
  try {
    message = fromBinary(schema, bytes);
  } catch (error) {
    // The decoder refuses messages nested past its recursion limit (100): a deep Struct, not broken bytes.
    if (error instanceof Error && error.message.includes('recursion depth')) {
      return { error: new A2AError('InvalidParams', `Invalid params: ${schema.typeName} is nested too deep`) };
    }
    return {
      error: new A2AError('ParseError', `Malformed ${schema.typeName}: the bytes are not a valid protobuf message`),
    };
  }
  try {
    return { json: toJson(schema, message) as Record<string, unknown> };
  } catch (error) {
    // An enum number the contract does not name, a Struct number JSON cannot hold, ...
    const why = error instanceof Error ? error.message : 'not representable';
    return { error: new A2AError('InvalidParams', `Invalid params: ${why}`) };
  }
}

/** A request's proto JSON as its bytes. */
export const encodeRequest = (method: DescMethod, json: Record<string, unknown>): Uint8Array =>
  toBinary(method.input, fromJson(method.input, json as JsonValue));

/** A result of the engine (proto JSON) as the method's response bytes. */
export function encodeResponse(method: DescMethod, result: unknown): Uint8Array {
  // The round trip drops `undefined` members and the engine's hidden bookkeeping, as JSON.stringify does over HTTP.
  const json = JSON.parse(JSON.stringify(result ?? {})) as JsonValue;
  return toBinary(method.output, fromJson(method.output, json, { ignoreUnknownFields: true }));
}
