import { type GrpcAnswer, grpcCall } from './grpc/grpc-call.js';
import { grpcTarget } from './grpc/grpc-target.js';
import type { Answer, Probe } from './http.js';
import { request } from './http.js';

/** The bindings this package checks. */
export type Binding = 'jsonrpc' | 'http+json' | 'grpc';

/** One entry of the card's `supportedInterfaces`, as far as it was well-formed. */
export interface Interface {
  url: string;
  protocolBinding: string;
  protocolVersion: string;
  tenant?: string;
}

/** The `checkAgent` options. */
export interface CheckOptions {
  /** Headers sent with every call but the ones that check refusals without credentials (`--header`, `--auth`). */
  headers?: Record<string, string>;
  /** Check this binding only. */
  binding?: Binding;
  /** Allow checks that create tasks, with this text as the message (`--send`). Without it nothing is created. */
  send?: string;
  /** Add the bounded bad-input sample (`--hostile`). */
  hostile?: boolean;
  /** Time each request may take, default 10 000 ms; a check that takes longer fails with "no answer within N s". */
  timeoutMs?: number;
  /** Called before each check runs (the terminal progress line). */
  onProgress?: (event: { index: number; total: number; id: string }) => void;
}

/** What every check reads: the card as found, its interfaces, and calls bounded by the run's timeout. */
export interface CheckContext {
  readonly cardUrl: string;
  readonly origin: string;
  /** The card as received (JSON), and the answer it came in. */
  readonly card: Record<string, unknown>;
  readonly cardAnswer: Answer;
  readonly interfaces: Interface[];
  readonly options: Required<Pick<CheckOptions, 'timeoutMs' | 'hostile'>> & CheckOptions;
  /** The v1.0 interface of a binding the run checks, or undefined (not declared, or narrowed away). */
  iface(binding: Binding): Interface | undefined;
  /** One request: `A2A-Version: 1.0` and the credentials added unless told (`anonymous`), bounded in time. */
  call(url: string, probe: CallProbe): Promise<Answer>;
  /** One gRPC call of the interface's A2AService (`request` in proto JSON), its tenant copied in, bounded in time. */
  grpc(iface: Interface, method: string, request: Record<string, unknown>, probe?: GrpcCallProbe): Promise<GrpcAnswer>;
  /** State shared by the `--send` checks (the task they created). */
  readonly shared: Map<string, unknown>;
}

export interface CallProbe extends Omit<Probe, 'timeoutMs'> {
  anonymous?: boolean;
  /** `A2A-Version` to send; `null` sends none. Default `1.0`. */
  version?: string | null;
}

export interface GrpcCallProbe {
  anonymous?: boolean;
  /** `a2a-version` metadata to send; `null` sends none. Default `1.0`. */
  version?: string | null;
  maxEvents?: number;
  implicit?: boolean;
  signal?: AbortSignal | undefined;
}

const BINDING_NAMES: Record<Binding, string> = { jsonrpc: 'JSONRPC', 'http+json': 'HTTP+JSON', grpc: 'GRPC' };

/** `1.0`, `1.0.1` and `1.0.0` all read as Major.Minor `1.0` (spec §3.6: patch numbers do not negotiate). */
export const majorMinor = (version: string): string => version.split('.').slice(0, 2).join('.');

export function createContext(
  found: { cardUrl: string; card: Record<string, unknown>; answer: Answer },
  interfaces: Interface[],
  options: CheckOptions,
): CheckContext {
  const resolved = { ...options, timeoutMs: options.timeoutMs ?? 10_000, hostile: options.hostile ?? false };
  return {
    cardUrl: found.cardUrl,
    origin: new URL(found.cardUrl).origin,
    card: found.card,
    cardAnswer: found.answer,
    interfaces,
    options: resolved,
    shared: new Map(),
    iface(binding) {
      if (options.binding && options.binding !== binding) return undefined;
      return interfaces.find(
        (i) => i.protocolBinding.toUpperCase() === BINDING_NAMES[binding] && majorMinor(i.protocolVersion) === '1.0',
      );
    },
    call(url, probe) {
      const headers: Record<string, string> = {};
      if (probe.version !== null) headers['A2A-Version'] = probe.version ?? '1.0';
      Object.assign(headers, probe.anonymous ? {} : options.headers, probe.headers);
      return request(url, { ...probe, headers, timeoutMs: resolved.timeoutMs });
    },
    grpc(iface, method, body, probe = {}) {
      const target = grpcTarget(iface.url);
      if (!target) throw new Error(`${iface.url} is not a gRPC target`);
      const metadata: Record<string, string> = {};
      if (probe.version !== null) metadata['a2a-version'] = probe.version ?? '1.0';
      Object.assign(metadata, probe.anonymous ? {} : options.headers);
      const withTenant = iface.tenant ? { tenant: iface.tenant, ...body } : body;
      return grpcCall(target, method, withTenant, { ...probe, metadata, timeoutMs: resolved.timeoutMs });
    },
  };
}

/**
 * The context one check runs with: its calls carry the check's own signal, so a check stopped for taking too long
 * cannot go on calling the agent beside the next one (every later call of it fails at once).
 */
export function forCheck(ctx: CheckContext, signal: AbortSignal): CheckContext {
  return Object.assign(Object.create(ctx) as CheckContext, {
    call: (url: string, probe: CallProbe) => ctx.call(url, { ...probe, signal }),
    grpc: (iface: Interface, method: string, body: Record<string, unknown>, probe: GrpcCallProbe = {}) =>
      ctx.grpc(iface, method, body, { ...probe, signal }),
  });
}
