import { isA2AError, type StreamResponse } from '@a2a/core';
import { BoundedCache, isJsonContentType, readBodyBytes } from '@a2a/core/internal';
import { StreamResponseSchema } from '@a2a/core/schemas';
import secureJson from 'secure-json-parse';
import { PARSED_BODY_HINT, WebhookError } from './errors.js';
import { type AnyNotification, type Notification, type NotificationKind, toNotification } from './notification.js';
import { fromV03, isV03Payload } from './v03.js';
import {
  type JwtVerification,
  jwtVerifier,
  type StandardWebhooksVerification,
  standardWebhooksVerifier,
  verifyAuthorization,
  verifyToken,
} from './verifiers.js';

export interface WebhookReceiverOptions {
  /** Expected `X-A2A-Notification-Token` (the `token` of the config you registered); several during a rotation. */
  token?: string | string[];
  /** Expected `Authorization: <scheme> <credentials>` (the config's `authentication`). */
  authorization?: { scheme: string; credentials: string };
  /** Verify the agent's JWT (`A2A-Notification-Signature`) against its JWKS. */
  jwt?: JwtVerification;
  /** Verify a Standard Webhooks HMAC signature. */
  standardWebhooks?: StandardWebhooksVerification;
  /** Explicitly accept unauthenticated notifications (tests only). */
  allowUnauthenticated?: boolean;
  /** Is this a task this client created? Unknown tasks get 404 (retryable: a notification may beat your bookkeeping). */
  isKnownTask?: (taskId: string) => boolean | Promise<boolean>;
  /** Seen notification ids, answered 2xx without running handlers again. Default 10 000 ids for 24 h. */
  dedup?: { max?: number; ttlMs?: number } | false;
  /** Largest accepted body. Default 1 MiB. */
  maxBodyBytes?: number;
  /** `handler` only answers this path (relative to the mount point); default any path. */
  path?: string;
  /**
   * Refusals ({@link WebhookError}: why a notification was refused, never with secrets) and handler errors.
   * Default: refusals are logged with console.warn unless NODE_ENV is 'production' (the sender only ever reads
   * "Unauthorized"), handler errors with console.error.
   */
  onError?: (error: unknown, request?: Request) => void;
}

export type NotificationHandler<K extends NotificationKind> = (notification: Notification<K>) => void | Promise<void>;

export interface ReceiveResult {
  duplicate: boolean;
}

/** Verification, de-duplication and typed dispatch of A2A push notifications (layered like octokit/webhooks). */
export class WebhookReceiver {
  private readonly handlers = new Map<NotificationKind | '*', Set<NotificationHandler<NotificationKind>>>();
  private readonly seen: BoundedCache<string, true> | undefined;
  private readonly verifyJwt;
  private readonly verifyHmac;
  private readonly maxBodyBytes: number;

  constructor(private readonly options: WebhookReceiverOptions) {
    const { token, authorization, jwt, standardWebhooks, allowUnauthenticated } = options;
    if (!token && !authorization && !jwt && !standardWebhooks && !allowUnauthenticated) {
      throw new Error(
        'WebhookReceiver needs token, authorization, jwt or standardWebhooks (or allowUnauthenticated: true)',
      );
    }
    this.verifyJwt = jwt && jwtVerifier(jwt);
    this.verifyHmac = standardWebhooks && standardWebhooksVerifier(standardWebhooks);
    this.seen =
      options.dedup === false
        ? undefined
        : new BoundedCache({ max: options.dedup?.max ?? 10_000, ttlMs: options.dedup?.ttlMs ?? 86_400_000 });
    this.maxBodyBytes = options.maxBodyBytes ?? 1024 * 1024;
  }

  /** Registers a handler for one kind of notification, or `'*'` for all. Returns a function that removes it. */
  on<K extends NotificationKind>(kind: K, handler: NotificationHandler<K>): () => void;
  on(kind: '*', handler: (notification: AnyNotification) => void | Promise<void>): () => void;
  on(kind: NotificationKind | '*', handler: (notification: never) => void | Promise<void>): () => void {
    const set = this.handlers.get(kind) ?? new Set();
    this.handlers.set(kind, set);
    const h = handler as NotificationHandler<NotificationKind>;
    set.add(h);
    return () => set.delete(h);
  }

  /**
   * Authenticates the raw body bytes with every configured verifier (all must pass), then parses them (v1.0
   * StreamResponse or v0.3 kind-tagged objects). Throws {@link WebhookError} (401 auth, 400 malformed, 413 size).
   */
  async verify(rawBody: string | Uint8Array | ArrayBuffer, headers: HeadersInit | Headers): Promise<AnyNotification> {
    const raw = toBytes(rawBody);
    if (raw.byteLength > this.maxBodyBytes) throw new WebhookError(413, `body larger than ${this.maxBodyBytes} bytes`);
    const h = headers instanceof Headers ? headers : new Headers(headers);
    const verifiedBy: AnyNotification['verifiedBy'] = [];
    let id: string | undefined;
    let jwtTaskId: unknown;
    if (this.options.token !== undefined) {
      await verifyToken(h, Array.isArray(this.options.token) ? this.options.token : [this.options.token]);
      verifiedBy.push('token');
    }
    if (this.options.authorization) {
      await verifyAuthorization(h, this.options.authorization);
      verifiedBy.push('authorization');
    }
    if (this.verifyHmac) {
      id = await this.verifyHmac(raw, h);
      verifiedBy.push('standard-webhooks');
    }
    if (this.verifyJwt) {
      const claims = await this.verifyJwt(raw, h);
      id = claims.jti;
      jwtTaskId = claims.taskId;
      verifiedBy.push('jwt');
    }
    id ??= h.get('a2a-notification-id') ?? h.get('webhook-id') ?? undefined;

    let json: unknown;
    try {
      json = secureJson.parse(new TextDecoder('utf-8', { fatal: true }).decode(raw));
    } catch {
      throw new WebhookError(400, 'body is not valid JSON');
    }
    const v03 = isV03Payload(json);
    const body = v03 ? readV03(json as Record<string, unknown>) : readV1(json);
    const base = toNotification(body);
    if (jwtTaskId !== undefined && jwtTaskId !== base.taskId)
      throw new WebhookError(401, 'JWT taskId does not match the body');
    const seqHeader = h.get('a2a-notification-seq');
    const seq = seqHeader !== null && /^\d+$/.test(seqHeader) ? Number(seqHeader) : undefined;
    return { ...base, body, id, seq, protocolVersion: v03 ? '0.3' : '1.0', verifiedBy, headers: h } as AnyNotification;
  }

  /**
   * Checks relevance and de-duplicates, then runs the handlers for the notification's kind and `'*'`. A duplicate
   * (same id seen within the TTL) runs nothing. If a handler throws, the id is forgotten so the sender's retry runs it.
   */
  async receive(notification: AnyNotification): Promise<ReceiveResult> {
    if (this.options.isKnownTask && !(await this.options.isKnownTask(notification.taskId))) {
      throw new WebhookError(404, `unknown task ${notification.taskId}`);
    }
    const { id } = notification;
    if (id !== undefined && this.seen) {
      if (this.seen.has(id)) return { duplicate: true };
      this.seen.set(id, true);
    }
    try {
      const handlers = [...(this.handlers.get(notification.kind) ?? []), ...(this.handlers.get('*') ?? [])];
      for (const handler of handlers) await handler(notification as never);
    } catch (error) {
      if (id !== undefined) this.seen?.delete(id);
      throw error;
    }
    return { duplicate: false };
  }

  async verifyAndReceive(
    rawBody: string | Uint8Array | ArrayBuffer,
    headers: HeadersInit | Headers,
  ): Promise<ReceiveResult> {
    return this.receive(await this.verify(rawBody, headers));
  }

  /**
   * Fetch handler, shaped like `A2AHttpHandler` so the @a2a/express, @a2a/koa and @a2a/hapi mounts (and any
   * Fetch-native host) serve it: 2xx when accepted or a duplicate, 401 bad or missing auth, 400 malformed,
   * 404 unknown task, 413 too large, 415 wrong content type, 500 when a handler failed (the sender retries).
   */
  readonly handler = {
    handle: (request: Request, options: { pathname?: string } = {}): Promise<Response | undefined> =>
      this.handle(request, options),
    fetch: async (request: Request, options: { pathname?: string } = {}): Promise<Response> =>
      (await this.handle(request, options)) ?? new Response('Not Found', { status: 404 }),
  };

  /** In development, say why a notification was refused (the response says only "Unauthorized"). */
  private readonly logRefusal = (refusal: unknown): void => {
    if (nodeEnv() === 'production') return;
    const error = refusal as WebhookError;
    const { token, authorization, jwt, standardWebhooks } = this.options;
    const configured = Object.entries({ token, authorization, jwt, standardWebhooks })
      .filter(([, value]) => value !== undefined)
      .map(([name]) => name);
    const every = error.status === 401 ? `; every configured verifier must pass (${configured.join(', ')})` : '';
    console.warn(`[a2a webhook] refused ${error.status}: ${error.message}${every}`);
  };

  private async handle(request: Request, options: { pathname?: string }): Promise<Response | undefined> {
    const path = options.pathname ?? new URL(request.url).pathname;
    if (this.options.path !== undefined && path !== this.options.path) return undefined;
    if (request.method !== 'POST') return text(405, 'Method Not Allowed', { allow: 'POST' });
    try {
      if (!isJsonContentType(request.headers.get('content-type'))) {
        throw new WebhookError(415, 'Content-Type must be application/a2a+json or application/json');
      }
      if (request.bodyUsed) throw new Error(PARSED_BODY_HINT);
      const raw = await readLimited(request, this.maxBodyBytes);
      const result = await this.verifyAndReceive(raw, request.headers);
      return Response.json({ ok: true, duplicate: result.duplicate }, { status: 200 });
    } catch (error) {
      if (error instanceof WebhookError) {
        (this.options.onError ?? this.logRefusal)(error, request);
        // Authentication failures carry no detail.
        return text(error.status, error.status === 401 ? 'Unauthorized' : error.message);
      }
      (this.options.onError ?? ((e: unknown) => console.error('[a2a webhook]', e)))(error, request);
      return text(500, 'Internal Server Error');
    }
  }
}

export function createWebhookReceiver(options: WebhookReceiverOptions): WebhookReceiver {
  return new WebhookReceiver(options);
}

function readV1(json: unknown): StreamResponse {
  const parsed = StreamResponseSchema.safeParse(json);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  throw notANotification(issue && `${issue.path.join('.')}: ${issue.message}`);
}

/** Core's v0.3 reader; its refusal (an InvalidParams A2AError) becomes a 400 that names the field. */
function readV03(json: Record<string, unknown>): StreamResponse {
  try {
    return fromV03(json);
  } catch (error) {
    const violation = isA2AError(error) ? error.fieldViolations?.[0] : undefined;
    throw notANotification(violation && `${violation.field}: ${violation.description}`);
  }
}

const notANotification = (detail: string | undefined) =>
  new WebhookError(400, `body is not an A2A notification (${detail ?? 'invalid'})`);

function toBytes(body: unknown): Uint8Array {
  if (typeof body === 'string') return new TextEncoder().encode(body);
  if (body instanceof Uint8Array) return body;
  if (body instanceof ArrayBuffer) return new Uint8Array(body);
  throw new TypeError(PARSED_BODY_HINT);
}

/** The body's bytes through core's reader (it knows the adapters' prepared bodies), 413 past the limit. */
async function readLimited(request: Request, max: number): Promise<Uint8Array> {
  try {
    return await readBodyBytes(request, max);
  } catch (error) {
    if (isA2AError(error) && error.type === 'PayloadTooLarge')
      throw new WebhookError(413, `body larger than ${max} bytes`);
    throw error;
  }
}

const text = (status: number, body: string, headers: Record<string, string> = {}) =>
  new Response(body, { status, headers: { 'content-type': 'text/plain; charset=utf-8', ...headers } });

/** NODE_ENV where there is a `process` (Node, Bun, Deno); workers have none. */
const nodeEnv = (): string | undefined =>
  (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env?.NODE_ENV;
