import type { Store } from '../../contracts/store.js';

/**
 * What a store adapter gives the contract suites: a fresh, empty store per test and a second handle on the same
 * store (another process or replica), both closed by `dispose`.
 */
export interface StoreUnderTest {
  store: Store;
  /** Another connection to the same store, as a second process or replica would open it. */
  another(): Promise<Store>;
  /** Close every handle and delete the store. */
  dispose(): Promise<void>;
}

/** Creates a fresh store under test. */
export type StoreFactory = () => Promise<StoreUnderTest>;

/** Wait until `check` holds, polling every 20 ms; throws naming `what` after `timeoutMs`. */
export async function eventually(check: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
