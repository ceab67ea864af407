import type { AgentCard, AgentInterface } from '../schemas/agent-card.js';
import { PROTOCOL_BINDINGS } from '../schemas/plain.js';
import type { AgentCardInput } from '../server/agent-card-input.js';

/** Where the handler serves each binding (`false`: not served), and whether the legacy wires are on. */
export interface CardPublishing {
  /** The engine's card: defaults for the modes and capabilities an extended card leaves out. */
  base: AgentCard;
  jsonRpcPath: string | false;
  restPath: string | false;
  legacy: boolean;
  /** Interfaces served elsewhere (e.g. `@a2a/grpc`'s listener), listed after the HTTP ones. */
  extra?: () => readonly AgentInterface[];
}

/**
 * The card as served for a base URL (scheme, host, prefix): the given card with the engine's defaults filled in and,
 * unless it lists its own, the interfaces this handler serves (v1.0, then v0.3 when the legacy wires are on).
 */
export function cardPublisher({ base, jsonRpcPath, restPath, legacy, extra }: CardPublishing) {
  // No trailing slash: REST clients append `/message:send`, `/tasks/{id}`, ...
  const restUrl = (baseUrl: string) => `${baseUrl.replace(/\/$/, '')}${(restPath || '').replace(/\/$/, '')}`;
  // Without a base URL (a call that did not come over HTTP) only the interfaces that need none are listed.
  const interfaces = (baseUrl: string | undefined): AgentInterface[] => {
    const out: AgentInterface[] = [];
    if (baseUrl === undefined) return [...(extra?.() ?? [])];
    if (jsonRpcPath !== false) {
      out.push({
        url: joinUrl(baseUrl, jsonRpcPath),
        protocolBinding: PROTOCOL_BINDINGS.jsonrpc,
        protocolVersion: '1.0',
      });
    }
    if (restPath !== false) {
      out.push({ url: restUrl(baseUrl), protocolBinding: PROTOCOL_BINDINGS.rest, protocolVersion: '1.0' });
    }
    if (jsonRpcPath !== false && legacy) {
      out.push({
        url: joinUrl(baseUrl, jsonRpcPath),
        protocolBinding: PROTOCOL_BINDINGS.jsonrpc,
        protocolVersion: '0.3',
      });
    }
    if (restPath !== false && legacy) {
      // v0.3 REST clients append `/v1/...` to this URL.
      out.push({ url: restUrl(baseUrl), protocolBinding: PROTOCOL_BINDINGS.rest, protocolVersion: '0.3' });
    }
    if (extra) out.push(...extra());
    return out;
  };
  return (baseUrl: string | undefined) =>
    (input: AgentCardInput): AgentCard =>
      ({
        ...input,
        defaultInputModes: input.defaultInputModes ?? base.defaultInputModes,
        defaultOutputModes: input.defaultOutputModes ?? base.defaultOutputModes,
        capabilities: input.capabilities ?? base.capabilities,
        supportedInterfaces: input.supportedInterfaces?.length ? input.supportedInterfaces : interfaces(baseUrl),
      }) as AgentCard;
}

/** A path under a base URL, with exactly one slash between them (`''` and `'/'` give the base with a slash). */
export function joinUrl(base: string, path: string): string {
  if (path === '' || path === '/') return base.endsWith('/') ? base : `${base}/`;
  return `${base.replace(/\/$/, '')}${path.startsWith('/') ? path : `/${path}`}`;
}
