import { CoreError } from '../../errors.js';
import type { DecodedImage } from '../../imaging/decode.js';
import type { OutboxEvent, OutboxRepository } from '../../contracts/outbox-repository.js';
import type { Settings } from '../../settings/settings.js';
import type { FaceEngine, LivenessEngine } from '../../contracts/face-engine.js';
import type { EngineHealth } from '../../contracts/step-result.js';
import { startBrokerLink, type BrokerLink } from '../outbox/broker-link.js';
import { EventFeed } from '../outbox/event-feed.js';
import { redactUrl } from '../outbox/jetstream-publisher.js';
import type { RelayOptions } from '../outbox/relay.js';
import { patchConfig, type OrchestratorConfig } from './config.js';
import { buildVerificationEvent, VERIFICATION_SUBJECT, type VerificationEvent } from './event.js';
import { healthDocument, rootDocument, type BrokerFacts } from './status.js';
import { modelVersions } from './model-versions.js';
import { normalizeStep, RAW_RANGES } from './normalize.js';
import { runPipeline } from './pipeline.js';
import { safeReference } from './reference.js';
import { toAudit, toResponse, type AuditFacts, type VerifyResponse } from './response.js';

/** What the orchestrator service needs. */
export interface OrchestratorServiceOptions {
  /** The durable outbox its events are written to (with the request's audit row). */
  outbox: OutboxRepository;
  settings: Settings;
  /** The face engine (match); undefined means verify answers 501 (the event feed still works). */
  face: FaceEngine | undefined;
  /** The liveness engine; undefined means verify answers 501. */
  liveness: LivenessEngine | undefined;
  /** Broker URL from `--queue` or IDV_QUEUE_URL; overrides the `queue_url` setting. */
  queueUrl?: string | undefined;
  /** Warning sink for relay trouble (no payloads). */
  warn?: (message: string) => void;
  /** Relay tuning (tests shorten the backoff; the bench observes acks). */
  relay?: RelayOptions;
}

/** One orchestrated verification: the HTTP body, the event to record, the audit facts. */
export interface VerifyResult {
  body: VerifyResponse;
  event: VerificationEvent;
  audit: AuditFacts;
}

/** The orchestrator: weighted liveness + face match, the durable outbox, the broker relay and the LAN feed. */
export class OrchestratorService {
  /** The LAN consumers' feed over the outbox. */
  readonly events: EventFeed;
  readonly outbox: OutboxRepository;
  private config: OrchestratorConfig;
  private link: BrokerLink | undefined;
  private started = false;
  private pruneTimer: NodeJS.Timeout | undefined;
  private readonly modelVersions: Record<string, string>;
  private readonly unfollow: () => void;

  constructor(private readonly options: OrchestratorServiceOptions) {
    this.outbox = options.outbox;
    this.events = new EventFeed(this.outbox);
    // The settings module checks the stored configuration (an unusable one reads as the defaults, reported).
    this.config = structuredClone(options.settings.get('orchestrator.config'));
    // An edit made here, by another process or another replica applies to the next request.
    this.unfollow = options.settings.onChange(() => {
      this.apply(structuredClone(options.settings.get('orchestrator.config')));
    });
    this.modelVersions = modelVersions([
      ...new Set([...(options.face?.modelNames ?? []), ...(options.liveness?.modelNames ?? [])]),
    ]);
  }

  /** Connect to the broker (when a URL is configured) and relay every unpublished row. Never waits for the broker. */
  start(): Promise<void> {
    this.started = true;
    this.connect();
    const prune = (): void => {
      this.prune().catch((error: unknown) => {
        this.options.warn?.(`outbox prune failed: ${error instanceof Error ? error.message : String(error)}`);
      });
    };
    prune();
    // Hourly is plenty for a retention counted in days; unref so it never keeps the process alive.
    this.pruneTimer = setInterval(prune, 60 * 60 * 1000).unref();
    return Promise.resolve();
  }

  /** Apply `outbox_retention_days`; returns the number of rows removed. */
  async prune(now = Date.now()): Promise<number> {
    const days = this.config.outbox_retention_days;
    if (days <= 0) return 0;
    const before = new Date(now - days * 24 * 60 * 60 * 1000).toISOString();
    return this.outbox.prune(before, this.queueUrl() === null);
  }

  /** Stop relaying and release waiters; unpublished rows stay for the next start. */
  async stop(): Promise<void> {
    this.started = false;
    this.unfollow();
    clearInterval(this.pruneTimer);
    this.events.close();
    const link = this.link;
    this.link = undefined;
    await link?.stop();
  }

  /** The broker URL in effect: the explicit one (CLI/env) first, else the setting. */
  queueUrl(): string | null {
    return this.options.queueUrl ?? this.config.queue_url;
  }

  /** Throw 501 when the face or liveness engine is missing, before any image is decoded. */
  assertAvailable(): void {
    if (!this.options.face || !this.options.liveness)
      throw new CoreError(
        'NOT_IMPLEMENTED',
        'The orchestrator needs the face and liveness engines, which are not available.',
      );
  }

  /** Run the stages on decoded images and decide. The caller writes `event` with its audit row (outboxEvent). */
  async verify(input: {
    selfie: DecodedImage;
    idCard: DecodedImage;
    requestId: string;
    reference?: unknown;
  }): Promise<VerifyResult> {
    this.assertAvailable();
    const face = this.options.face!;
    const liveness = this.options.liveness!;
    const reference = safeReference(input.reference);
    const config = this.config;
    const outcome = await runPipeline(
      {
        liveness: async () => normalizeStep(await liveness.liveness(input.selfie), RAW_RANGES.liveness),
        face_match: async () =>
          normalizeStep(await face.match(input.selfie, input.idCard), RAW_RANGES.face_match),
      },
      config,
    );
    const event = buildVerificationEvent({
      outcome,
      config,
      requestId: input.requestId,
      reference,
      modelVersions: this.modelVersions,
    });
    return { body: toResponse(event, outcome), event, audit: toAudit(outcome) };
  }

  /** The outbox entry of a result, to write with the request's audit row (`request.idv.outbox`). */
  outboxEvent(event: VerificationEvent): OutboxEvent {
    return { id: event.id, subject: VERIFICATION_SUBJECT, payload: event };
  }

  /** After the audit row and the event committed (`request.idv.afterCommit`): wake the relay and the LAN feed. */
  committed(): void {
    this.link?.relay.nudge();
    this.events.notify();
  }

  /** Write the event on its own and wake the relay: for callers without an audit row (tools, tests). */
  async recordAndCommit(event: VerificationEvent): Promise<number> {
    const seq = await this.outbox.add(this.outboxEvent(event));
    this.committed();
    return seq;
  }

  /** The active configuration (a copy). */
  getConfig(): OrchestratorConfig {
    return structuredClone(this.config);
  }

  /** Apply a partial update: validated (400 BODY_INVALID naming the field), stored, effective for the next request. */
  async setConfig(patch: unknown): Promise<OrchestratorConfig> {
    const next = patchConfig(this.config, patch);
    await this.options.settings.set('orchestrator.config', next);
    this.apply(next);
    return this.getConfig();
  }

  /** Make a configuration the active one, reconnecting when the broker URL changed. */
  private apply(next: OrchestratorConfig): void {
    const previousUrl = this.queueUrl();
    this.config = next;
    if (this.started && this.queueUrl() !== previousUrl) void this.reconnect();
  }

  /** Health: broker connected, outbox backlog, relay state. Degraded (still 200) while the broker is away. */
  async health(): Promise<EngineHealth> {
    return healthDocument({
      faceReady: this.options.face !== undefined && this.options.liveness !== undefined,
      broker: this.brokerFacts(),
      backlog: await this.outbox.backlog(),
      head: await this.outbox.lastSeq(),
      relay: this.link?.relay.stats() ?? null,
    });
  }

  /** Extra fields of the service root: the active configuration, where events go, the event schema. */
  root(): Record<string, unknown> {
    return rootDocument(this.getConfig(), this.brokerFacts());
  }

  private brokerFacts(): BrokerFacts {
    const url = this.queueUrl();
    return {
      enabled: url !== null,
      connected: this.link?.publisher.isConnected() ?? false,
      url: url === null ? null : redactUrl(url),
    };
  }

  private connect(): void {
    const url = this.queueUrl();
    if (!url || this.link) return;
    const relayOptions: RelayOptions = { ...this.options.relay };
    if (this.options.warn) relayOptions.warn = this.options.warn;
    this.link = startBrokerLink(this.outbox, url, relayOptions);
  }

  private async reconnect(): Promise<void> {
    const link = this.link;
    this.link = undefined;
    await link?.stop();
    if (this.started) this.connect();
  }
}

/** Create the orchestrator service; call `start()` once the server is up and `stop()` on close. */
export function createOrchestratorService(options: OrchestratorServiceOptions): OrchestratorService {
  return new OrchestratorService(options);
}
