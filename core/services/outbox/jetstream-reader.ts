import { connect } from 'nats';
import { EVENT_STREAM } from './jetstream-publisher.js';

/** What a JetStream stream holds: every message's msgID (event id) and parsed payload, in stream order. */
export interface StreamContents {
  messages: { msgId: string | undefined; payload: Record<string, unknown> }[];
}

/** Read every message of the events stream (tests and the bench check delivery with it). */
export async function readStream(url: string, stream = EVENT_STREAM): Promise<StreamContents> {
  const connection = await connect({ servers: url, timeout: 2000, reconnect: false });
  try {
    const manager = await connection.jetstreamManager();
    const info = await manager.streams.info(stream);
    const messages: StreamContents['messages'] = [];
    for (let seq = info.state.first_seq; seq <= info.state.last_seq && info.state.messages > 0; seq += 1) {
      const message = await manager.streams.getMessage(stream, { seq });
      messages.push({
        msgId: message.header.get('Nats-Msg-Id') || undefined,
        payload: message.json<Record<string, unknown>>(),
      });
    }
    return { messages };
  } finally {
    await connection.close();
  }
}
