import { describe, expect, it } from 'vitest';
import { readManifest } from '../../models/manifest.js';
import { loadDetector } from './detector.js';
import { loadEyeModel } from './eye-model.js';
import { loadLandmarker } from './landmarker.js';

describe('face model runners', () => {
  it('fail fast when the file does not match the manifest digest', async () => {
    const manifest = readManifest();
    const broken = {
      ...manifest,
      models: manifest.models.map((m) => (m.name === 'fr_detect' ? { ...m, sha256: '0'.repeat(64) } : m)),
    };
    await expect(loadDetector({ manifest: broken })).rejects.toThrow(/sha256/);
  });

  it('fail fast when the recorded shape differs', async () => {
    const manifest = readManifest();
    const broken = {
      ...manifest,
      models: manifest.models.map((m) =>
        m.name === 'fr_eye' ? { ...m, inputs: { input: [1, 1, 32, 32] } } : m,
      ),
    };
    await expect(loadEyeModel({ manifest: broken })).rejects.toThrow(/shape/);
  });

  it('refuse inputs of the wrong size instead of running on garbage', async () => {
    const landmarker = await loadLandmarker();
    await expect(
      landmarker.run({ data: new Uint8Array(32 * 32), width: 32, height: 32, channels: 1 }),
    ).rejects.toThrow(/64x64/);
    await landmarker.dispose();
  });
});
