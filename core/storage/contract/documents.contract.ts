import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { DocumentProfile } from '../../contracts/document-engine.js';
import type { NewReferenceMark } from '../../contracts/document-repositories.js';
import type { StoreFactory, StoreUnderTest } from './harness.js';

const builtIn: DocumentProfile = {
  name: 'default',
  description: 'built in',
  features: [{ feature: 'mrz', min_score: 0.5 }],
  reference_marks: [],
};

function mark(id: string, name: string, withTemplate: boolean): NewReferenceMark {
  return {
    id,
    name,
    preview: Buffer.from(`png of ${name}`),
    features: {
      count: 2,
      width: 64,
      height: 48,
      points: Float32Array.from([1.5, 2.5, 10.25, 20.75]),
      scales: Float32Array.from([1, 1.2]),
      descriptors: Uint32Array.from({ length: 16 }, (_, i) => (i * 2654435761) >>> 0),
      ...(withTemplate ? { template: { data: Uint8Array.from([0, 128, 255, 7]), width: 2, height: 2 } } : {}),
    },
    descriptorVersion: 1,
    createdAt: '2026-11-01T00:00:00.000Z',
  };
}

/** DocumentProfileRepository and ReferenceMarkRepository. */
export function documentsContract(factory: StoreFactory): void {
  describe('document profile and reference mark repositories', () => {
    let subject: StoreUnderTest;
    beforeEach(async () => {
      subject = await factory();
    });
    afterEach(async () => {
      await subject.dispose();
    });

    it('seeds built-in profiles once, keeping an operator edit across a second seed', async () => {
      const profiles = subject.store.documentProfiles;
      await profiles.seed([builtIn]);
      expect(await profiles.get('default')).toMatchObject({ ...builtIn, built_in: true });
      const edited = await profiles.save({ ...builtIn, description: 'edited' });
      expect(edited).toMatchObject({ description: 'edited', built_in: true });
      await profiles.seed([builtIn]);
      expect((await profiles.get('default'))?.description).toBe('edited');
      const custom = await profiles.save({ ...builtIn, name: 'custom' });
      expect(custom).toMatchObject({ name: 'custom', built_in: false });
      expect(typeof custom.updated_at).toBe('string');
      expect((await profiles.list()).map((p) => p.name)).toEqual(['custom', 'default']);
      expect(await profiles.delete('custom')).toBe(true);
      expect(await profiles.delete('custom')).toBe(false);
      expect(await profiles.get('custom')).toBeUndefined();
    });

    it('stores marks with their features byte for byte and refuses a second mark of a name', async () => {
      const marks = subject.store.referenceMarks;
      const a = mark('mark_a', 'Arms', true);
      const b = mark('mark_b', 'Seal', false);
      expect(await marks.add(a)).toEqual({
        id: 'mark_a',
        name: 'Arms',
        width: 64,
        height: 48,
        keypoints: 2,
        created_at: a.createdAt,
      });
      await marks.add(b);
      expect(await marks.add(mark('mark_c', 'Arms', false))).toBeUndefined();
      expect(await marks.hasName('Arms')).toBe(true);
      expect(await marks.hasName('Crest')).toBe(false);
      expect((await marks.list()).map((m) => m.id)).toEqual(['mark_a', 'mark_b']);
      const [loaded] = await marks.load(['Arms']);
      expect(loaded).toMatchObject({ id: 'mark_a', descriptorVersion: 1 });
      expect(loaded!.features).toEqual(a.features);
      expect((await marks.load(['Seal']))[0]!.features.template).toBeUndefined();
      expect(await marks.load([])).toHaveLength(2);
      expect((await marks.preview('mark_a'))?.toString()).toBe('png of Arms');
      expect(await marks.preview('mark_x')).toBeUndefined();
      expect(await marks.delete('mark_a')).toBe(true);
      expect(await marks.delete('mark_a')).toBe(false);
      expect((await marks.list()).map((m) => m.id)).toEqual(['mark_b']);
    });
  });
}
