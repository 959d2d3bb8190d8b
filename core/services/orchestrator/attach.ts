import type { Services } from '../container.js';
import { createOrchestratorService } from './service.js';

/**
 * Create and start the orchestrator over a container whose engines are loaded, and stop it (relay first) before the
 * store closes. Never waits for the broker.
 */
export async function attachOrchestrator(services: Services, queueUrl: string | undefined): Promise<void> {
  const orchestrator = createOrchestratorService({
    outbox: services.store.outbox,
    settings: services.settings,
    face: services.face,
    liveness: services.liveness,
    queueUrl,
    warn: (message) => {
      process.emitWarning(message, { code: 'IDV_OUTBOX_RELAY' });
    },
  });
  await orchestrator.start();
  services.orchestrator = orchestrator;
  // Disposers run in reverse: this one runs before the store's close.
  services.disposers.push(() => orchestrator.stop());
}
