import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { StoreFactory, StoreUnderTest } from './harness.js';

/** Store: the template key's check value (kept once, seen by every handle) and health. */
export function storeFactsContract(factory: StoreFactory): void {
  describe('store facts', () => {
    let subject: StoreUnderTest;
    beforeEach(async () => {
      subject = await factory();
    });
    afterEach(async () => {
      await subject.dispose();
    });

    it('keeps the first key check value and hands it to every handle', async () => {
      expect(await subject.store.keyCheck('check-a')).toBe('check-a');
      expect(await subject.store.keyCheck('check-b')).toBe('check-a');
      expect(await (await subject.another()).keyCheck('check-c')).toBe('check-a');
      expect((await subject.store.health()).reachable).toBe(true);
    });
  });
}
