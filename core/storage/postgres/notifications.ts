import pg from 'pg';
import { clientConfig } from './connection.js';

/** What a channel's subscriber hears: a notification's payload, or undefined once listening (some may be lost). */
export type ChannelListener = (payload: string | undefined) => void;

/** Longest wait between two attempts to reconnect the listening connection. */
const MAX_BACKOFF_MS = 5000;

/**
 * One LISTEN connection per store handle, opened when the first subscriber comes and kept open (reconnecting with
 * back-off while the database is away). Once a channel is listened to (on connecting, on reconnecting, or when
 * its first subscriber comes later) its subscribers are called without a payload, since notifications sent
 * before are lost (a write that commits while the connection is still opening, or while it is away): each then
 * catches up by reading the database.
 */
export class Notifications {
  private readonly channels = new Map<string, Set<ChannelListener>>();
  private client: pg.Client | undefined;
  private connecting: Promise<void> | undefined;
  private timer: NodeJS.Timeout | undefined;
  private backoffMs = 250;
  private closed = false;

  constructor(private readonly url: string) {}

  /** Hear `channel`; returns the function that stops. */
  subscribe(channel: string, listener: ChannelListener): () => void {
    let set = this.channels.get(channel);
    if (!set) {
      const fresh = new Set<ChannelListener>();
      this.channels.set(channel, fresh);
      set = fresh;
      if (this.client) {
        this.client
          .query(`LISTEN ${channel}`)
          .then(() => {
            catchUp(fresh);
          })
          .catch(() => {
            this.reconnectSoon();
          });
      }
    }
    set.add(listener);
    if (!this.client && !this.connecting) this.connect();
    return () => {
      set.delete(listener);
    };
  }

  /** True while the LISTEN connection is up. */
  get connected(): boolean {
    return this.client !== undefined;
  }

  /** Close the connection for good. */
  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.timer);
    await this.connecting;
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => undefined);
  }

  private connect(): void {
    this.connecting = this.open().finally(() => {
      this.connecting = undefined;
    });
  }

  private async open(): Promise<void> {
    if (this.closed) return;
    const client = new pg.Client(clientConfig(this.url));
    client.on('error', () => {
      this.lost(client);
    });
    client.on('end', () => {
      this.lost(client);
    });
    client.on('notification', (message) => {
      for (const listener of [...(this.channels.get(message.channel) ?? [])]) listener(message.payload);
    });
    try {
      await client.connect();
      for (const channel of this.channels.keys()) await client.query(`LISTEN ${channel}`);
    } catch {
      await client.end().catch(() => undefined);
      this.reconnectSoon();
      return;
    }
    if (this.closed) {
      await client.end().catch(() => undefined);
      return;
    }
    this.client = client;
    this.backoffMs = 250;
    for (const set of this.channels.values()) catchUp(set);
  }

  private lost(client: pg.Client): void {
    if (this.client !== client) return;
    this.client = undefined;
    client.end().catch(() => undefined);
    this.reconnectSoon();
  }

  private reconnectSoon(): void {
    if (this.closed || this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      if (!this.client && !this.connecting) this.connect();
    }, this.backoffMs);
    this.timer.unref();
    this.backoffMs = Math.min(MAX_BACKOFF_MS, this.backoffMs * 2);
  }
}

/** Tell a channel's subscribers that notifications before now may be lost: each catches up by reading. */
function catchUp(listeners: ReadonlySet<ChannelListener>): void {
  for (const listener of [...listeners]) listener(undefined);
}
