import { JetStreamPublisher, type EventPublisher } from './jetstream-publisher.js';
import type { OutboxRepository } from '../../contracts/outbox-repository.js';
import { OutboxRelay, type RelayOptions } from './relay.js';

/** A publisher and the relay feeding it, started and stopped together. */
export interface BrokerLink {
  publisher: EventPublisher;
  relay: OutboxRelay;
  stop(): Promise<void>;
}

/**
 * Start relaying the outbox to a NATS JetStream broker at `url`. Never waits for the broker: rows already in the
 * outbox (from before a crash or an outage) are relayed as soon as it answers, with backoff until then.
 */
export function startBrokerLink(
  store: OutboxRepository,
  url: string,
  options: RelayOptions = {},
): BrokerLink {
  const publisher = new JetStreamPublisher({ url });
  const relay = new OutboxRelay(store, publisher, options);
  relay.start();
  return {
    publisher,
    relay,
    stop: async () => {
      await relay.stop();
      await publisher.close();
    },
  };
}
