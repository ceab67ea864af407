import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';

export type NotificationHandler = (payload: string) => void;

/** Delays between reconnect attempts. */
export interface ReconnectBackoff {
  /** First delay ceiling. Default 200 ms. */
  baseMs?: number;
  /** Largest delay. Default 5 s. */
  maxMs?: number;
  /** Jitter source (tests). */
  random?: () => number;
}

/**
 * One dedicated (non-pooled) connection that LISTENs on a few channels and reconnects when it is lost.
 * Notifications sent while it is down are gone, so `onReconnect` tells readers to catch up from the log.
 *
 * Exactly one reconnect loop runs at a time, and only the connection in use can start it: a failed attempt both
 * rejects and emits `end`, and reacting to both doubled the attempts on every failure (a few seconds of outage
 * turned 3 connections into 30 and could exhaust the server's slots).
 */
export class PgNotifier {
  private client: pg.Client | undefined;
  private closed = false;
  private reconnecting = false;
  /** The connection attempt in flight, if any (awaited by `close`). */
  private attempt: Promise<void> | undefined;
  private readonly stop = new AbortController();
  private readonly backoff: Required<ReconnectBackoff>;

  constructor(
    private readonly config: pg.ClientConfig,
    private readonly handlers: Record<string, NotificationHandler>,
    private readonly onReconnect: () => void,
    private readonly onError: (error: unknown) => void,
    backoff: ReconnectBackoff = {},
  ) {
    this.backoff = { baseMs: 200, maxMs: 5000, random: Math.random, ...backoff };
  }

  /** Resolves once listening; rejects when this first connection fails (no retry: the caller decides). */
  start(): Promise<void> {
    if (this.client || this.reconnecting) return Promise.resolve();
    return this.connect();
  }

  get listening(): boolean {
    return this.client !== undefined;
  }

  async close(): Promise<void> {
    this.closed = true;
    this.stop.abort();
    await this.attempt?.catch(() => {});
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => {});
  }

  /** One attempt: a new client, LISTEN on every channel; on failure the client is ended and the error thrown. */
  private connect(): Promise<void> {
    const client = new pg.Client(this.config);
    // Always a listener: an 'error' on a client without one crashes the process.
    client.on('error', (error) => this.lost(client, error));
    client.on('end', () => this.lost(client));
    client.on('notification', (message) => {
      const handler = this.handlers[message.channel];
      if (handler && message.payload !== undefined) handler(message.payload);
    });
    const attempt = (async () => {
      try {
        await client.connect();
        for (const channel of Object.keys(this.handlers)) await client.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
      } catch (error) {
        client.end().catch(() => {});
        throw error;
      }
      if (this.closed) await client.end().catch(() => {});
      else this.client = client;
    })();
    this.attempt = attempt;
    return attempt.finally(() => {
      if (this.attempt === attempt) this.attempt = undefined;
    });
  }

  /** The connection in use broke: start the reconnect loop. Events of failed attempts are their caller's. */
  private lost(client: pg.Client, error?: unknown): void {
    if (this.client !== client) return;
    this.client = undefined;
    client.end().catch(() => {});
    if (this.closed) return;
    if (error) this.onError(error);
    void this.reconnect();
  }

  private async reconnect(): Promise<void> {
    if (this.reconnecting) return;
    this.reconnecting = true;
    try {
      for (let failures = 0; !this.closed; failures++) {
        // Unref'd, and cut short by close().
        await sleep(this.delay(failures), undefined, { ref: false, signal: this.stop.signal }).catch(() => {});
        if (this.closed) return;
        try {
          await this.connect();
        } catch {
          continue; // the server is still away: try again later, one attempt at a time
        }
        if (this.closed) return;
        this.reconnecting = false;
        this.onReconnect();
        return;
      }
    } finally {
      this.reconnecting = false;
    }
  }

  /** Exponential, capped, drawn from the upper half of the ceiling: instances restarted together spread out. */
  private delay(failures: number): number {
    const { baseMs, maxMs, random } = this.backoff;
    const ceiling = Math.min(maxMs, baseMs * 2 ** failures);
    return ceiling / 2 + random() * (ceiling / 2);
  }
}
