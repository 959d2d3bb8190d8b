import { apiKeysContract } from './api-keys.contract.js';
import { auditContract } from './audit.contract.js';
import { consoleContract } from './console.contract.js';
import { documentsContract } from './documents.contract.js';
import { enrollmentsContract } from './enrollments.contract.js';
import type { StoreFactory } from './harness.js';
import { outboxContract } from './outbox.contract.js';
import { settingsContract } from './settings.contract.js';
import { storeFactsContract } from './store.contract.js';

export type { StoreFactory, StoreUnderTest } from './harness.js';

/** Every repository's contract suite, for a store adapter to pass (call it inside an adapter's test file). */
export function storeContract(factory: StoreFactory): void {
  settingsContract(factory);
  apiKeysContract(factory);
  auditContract(factory);
  outboxContract(factory);
  enrollmentsContract(factory);
  documentsContract(factory);
  consoleContract(factory);
  storeFactsContract(factory);
}
