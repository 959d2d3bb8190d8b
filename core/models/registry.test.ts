import { describe, expect, it } from 'vitest';
import { readManifest } from './manifest.js';
import { loadModel, verifyManifestFiles } from './registry.js';

describe('model registry', () => {
  it('verifies every manifest file by sha256', () => {
    for (const result of verifyManifestFiles()) expect(result, result.name).toMatchObject({ ok: true });
  });

  it('loads a model whose shapes match the manifest', async () => {
    const model = await loadModel('fr_detect');
    expect(model.session.inputNames).toEqual(['input']);
    await model.session.release();
  });

  it('fails fast with a clear message on a wrong digest or shape', async () => {
    const manifest = readManifest();
    const wrongDigest = structuredClone(manifest);
    wrongDigest.models.find((m) => m.name === 'fr_feature')!.sha256 = '0'.repeat(64);
    await expect(loadModel('fr_feature', { manifest: wrongDigest })).rejects.toThrow(
      /sha256 .* does not match/,
    );
    const wrongShape = structuredClone(manifest);
    wrongShape.models.find((m) => m.name === 'fr_feature')!.inputs = { input: [1, 3, 224, 224] };
    await expect(loadModel('fr_feature', { manifest: wrongShape })).rejects.toThrow(/shape/);
    await expect(loadModel('no_such_model')).rejects.toThrow(/not listed/);
  });
});
