import {
  connect,
  Events,
  nanos,
  RetentionPolicy,
  StorageType,
  type JetStreamClient,
  type NatsConnection,
} from 'nats';

/** Stream every IDV event is captured in. */
export const EVENT_STREAM = 'IDV_EVENTS';
/** Subjects the stream captures: `idv.events.<service>.<kind>`. */
export const EVENT_SUBJECTS = 'idv.events.>';

/** Where events go: the relay depends on this, the JetStream adapter implements it. */
export interface EventPublisher {
  /** True while a broker connection is up. */
  isConnected(): boolean;
  /** Connect if needed and ensure the stream; throws when the broker cannot be reached. */
  ready(): Promise<void>;
  /** Publish one event; resolves once the broker has stored it (JetStream ack). */
  publish(subject: string, data: string, eventId: string): Promise<{ duplicate: boolean }>;
  /** Register a callback for when the connection comes back (so the relay retries at once). */
  onReconnect(listener: () => void): void;
  /** Safe facts for health: never credentials. */
  describe(): Record<string, unknown>;
  close(): Promise<void>;
}

/** Options of the JetStream adapter. */
export interface JetStreamPublisherOptions {
  /** Broker URL, e.g. `nats://127.0.0.1:4222`. */
  url: string;
  /** Stream name (default `IDV_EVENTS`). */
  stream?: string;
  /** Milliseconds to wait for a publish acknowledgement before the relay treats it as failed. */
  publishTimeoutMs?: number;
  /** Milliseconds to wait for the first TCP/NATS handshake. */
  connectTimeoutMs?: number;
}

/** The URL without user info, for health and logs. */
export function redactUrl(url: string): string {
  return url.replace(/\/\/[^@/]*@/, '//***@');
}

/** NATS JetStream adapter: one connection, reconnecting forever once established; ensures the stream on connect. */
export class JetStreamPublisher implements EventPublisher {
  private connection: NatsConnection | undefined;
  private jetstream: JetStreamClient | undefined;
  private streamReady = false;
  private connected = false;
  private closed = false;
  private readonly listeners: (() => void)[] = [];
  private readonly stream: string;

  constructor(private readonly options: JetStreamPublisherOptions) {
    this.stream = options.stream ?? EVENT_STREAM;
  }

  isConnected(): boolean {
    return this.connected;
  }

  onReconnect(listener: () => void): void {
    this.listeners.push(listener);
  }

  async ready(): Promise<void> {
    if (this.closed) throw new Error('publisher closed');
    if (this.connection && !this.connection.isClosed() && !this.connected) {
      // The client is reconnecting on its own; requests now would only wait for their timeout.
      throw new Error('broker disconnected; reconnecting');
    }
    if (!this.connection || this.connection.isClosed()) {
      const connection = await connect({
        servers: this.options.url,
        name: 'idv-console-orchestrator',
        // Generous: at server start the engines' warm-up can hold the event loop for a few seconds.
        timeout: this.options.connectTimeoutMs ?? 5000,
        reconnect: true,
        maxReconnectAttempts: -1,
        reconnectTimeWait: 500,
      });
      if (this.closed) {
        await connection.close();
        throw new Error('publisher closed');
      }
      this.connection = connection;
      this.jetstream = connection.jetstream();
      this.connected = true;
      this.streamReady = false;
      void this.watch(connection);
    }
    if (!this.streamReady) {
      await this.ensureStream(this.connection);
      this.streamReady = true;
    }
  }

  async publish(subject: string, data: string, eventId: string): Promise<{ duplicate: boolean }> {
    if (!this.jetstream) throw new Error('not connected');
    try {
      const ack = await this.jetstream.publish(subject, new TextEncoder().encode(data), {
        msgID: eventId,
        timeout: this.options.publishTimeoutMs ?? 5000,
        expect: { streamName: this.stream },
      });
      return { duplicate: ack.duplicate };
    } catch (error) {
      // A restarted broker that lost its store answers "no responders": re-create the stream next round.
      this.streamReady = false;
      throw error;
    }
  }

  describe(): Record<string, unknown> {
    return {
      url: redactUrl(this.options.url),
      connected: this.connected,
      stream: this.stream,
      subjects: EVENT_SUBJECTS,
    };
  }

  async close(): Promise<void> {
    this.closed = true;
    this.connected = false;
    const connection = this.connection;
    this.connection = undefined;
    this.jetstream = undefined;
    if (connection && !connection.isClosed()) await connection.close();
  }

  private async ensureStream(connection: NatsConnection): Promise<void> {
    const manager = await connection.jetstreamManager();
    try {
      await manager.streams.info(this.stream);
    } catch (error) {
      if (!(error instanceof Error) || !/stream not found/i.test(error.message)) throw error;
      await manager.streams.add({
        name: this.stream,
        subjects: [EVENT_SUBJECTS],
        storage: StorageType.File,
        retention: RetentionPolicy.Limits,
        // Broker-side de-duplication by msgID (= event id) covers a relay re-sending after a crash within this window.
        duplicate_window: nanos(2 * 60 * 1000),
      });
    }
  }

  private async watch(connection: NatsConnection): Promise<void> {
    for await (const status of connection.status()) {
      if (status.type === Events.Disconnect) {
        this.connected = false;
        this.streamReady = false;
      } else if (status.type === Events.Reconnect) {
        this.connected = true;
        for (const listener of this.listeners) listener();
      }
    }
    this.connected = false;
  }
}
