import type { AgentCard } from '@a2a/core';
import type { ProtocolBinding, ReconnectOptions, TransportOptions } from './options.js';
import type { Wire } from './wire.js';

// The client's own options, apart from options.ts (what every wire reads), so that wire.ts and options.ts do not
// import each other.

/**
 * Another protocol version the client can speak, e.g. `v03` from `@a2a/client/v03` (a separate entry point, so the
 * v1.0 client's bundle does not carry its translators). Requests and results stay v1.0 objects.
 */
export interface ProtocolPlugin {
  /** The interfaces it serves: their `protocolVersion` is this (Major.Minor) or starts with it and a dot. */
  version: string;
  /** Any card JSON as a v1.0 card (a v0.3 card names its endpoint in `url`/`preferredTransport`). */
  readCard(json: unknown, from: string): AgentCard;
  /** The wire for a binding at `url`; `undefined` when this version is not spoken over that binding. */
  wire(binding: ProtocolBinding, url: string, transport: TransportOptions): Wire | undefined;
}

export interface A2AClientOptions extends TransportOptions {
  /** Speak another protocol version (`v03` from `@a2a/client/v03`) with an interface of that version. */
  protocol?: ProtocolPlugin;
  /** Bindings to use, most preferred first; the first one the card offers wins (default JSON-RPC, then HTTP+JSON). */
  bindings?: ProtocolBinding[];
  /** Reconnecting a stream that broke before its last event; `false` turns it off. */
  reconnect?: ReconnectOptions | false;
}
