import pg from 'pg';

export type NotificationHandler = (payload: string) => void;

/**
 * One dedicated (non-pooled) connection that LISTENs on a few channels and reconnects with backoff when it is lost.
 * Notifications sent while it is down are gone, so `onReconnect` tells readers to catch up from the log.
 */
export class PgNotifier {
  private client: pg.Client | undefined;
  private closed = false;
  private retryMs = 100;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private connecting: Promise<void> | undefined;

  constructor(
    private readonly config: pg.ClientConfig,
    private readonly handlers: Record<string, NotificationHandler>,
    private readonly onReconnect: () => void,
    private readonly onError: (error: unknown) => void,
  ) {}

  /** Resolves once listening; rejects when the first connection fails. */
  start(): Promise<void> {
    this.connecting = this.connect();
    return this.connecting;
  }

  get listening(): boolean {
    return this.client !== undefined;
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    await this.connecting?.catch(() => {});
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => {});
  }

  private async connect(): Promise<void> {
    const client = new pg.Client(this.config);
    let lost = false;
    const onLost = (error?: unknown) => {
      if (lost) return;
      lost = true;
      if (this.client === client) this.client = undefined;
      client.end().catch(() => {});
      if (!this.closed) {
        if (error) this.onError(error);
        this.scheduleReconnect();
      }
    };
    client.on('error', onLost);
    client.on('end', () => onLost());
    client.on('notification', (message) => {
      const handler = this.handlers[message.channel];
      if (handler && message.payload !== undefined) handler(message.payload);
    });
    await client.connect();
    for (const channel of Object.keys(this.handlers)) await client.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
    if (this.closed) {
      await client.end().catch(() => {});
      return;
    }
    this.client = client;
    this.retryMs = 100;
  }

  private scheduleReconnect(): void {
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.connecting = this.connect().then(
        () => this.onReconnect(),
        () => {
          if (!this.closed) this.scheduleReconnect();
        },
      );
    }, this.retryMs);
    this.timer.unref?.();
    this.retryMs = Math.min(this.retryMs * 2, 2000);
  }
}
