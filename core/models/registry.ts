import crypto from 'node:crypto';
import fs from 'node:fs';
import ort from 'onnxruntime-node';
import { foldConvolutionAffines } from './fold.js';
import { readManifest, resolveModelFile, type ModelEntry, type ModelManifest } from './manifest.js';

/** A verified ONNX session with the manifest entry it was checked against. */
export interface LoadedModel {
  entry: ModelEntry;
  session: ort.InferenceSession;
}

/** Options for loading models. */
export interface LoadModelOptions extends SessionThreads {
  manifest?: ModelManifest;
}

/** A session's threading: how many intra-op threads, and whether idle ones spin. */
export interface SessionThreads {
  /** Intra-op threads per session; 1 keeps concurrent requests from oversubscribing 2-4 cores. */
  intraOpNumThreads?: number;
  /** Whether idle intra-op threads spin waiting for work (onnxruntime's default); spinning burns a core others need. */
  allowSpinning?: boolean;
}

/** Compute the sha256 of some bytes in hex. */
function sha256(bytes: Uint8Array): string {
  return crypto.createHash('sha256').update(bytes).digest('hex');
}

/** Compute a file's sha256 in hex. */
export function sha256File(file: string): string {
  return sha256(fs.readFileSync(file));
}

/**
 * Load one model by manifest name and fail fast with a clear message when the file is missing,
 * its sha256 differs, or its inputs/outputs do not have the shapes the manifest records.
 */
export async function loadModel(name: string, options: LoadModelOptions = {}): Promise<LoadedModel> {
  const [model] = await loadModelSessions(name, [options], options.manifest);
  return model!;
}

/**
 * One model opened as several sessions, one per threading (the file read, checked and folded once), checked as
 * `loadModel` checks it.
 */
export async function loadModelSessions(
  name: string,
  threadings: readonly SessionThreads[],
  manifest: ModelManifest = readManifest(),
): Promise<LoadedModel[]> {
  const entry = manifest.models.find((m) => m.name === name);
  if (!entry) throw new Error(`Model ${name} is not listed in models/manifest.json.`);
  const file = resolveModelFile(entry);
  if (!fs.existsSync(file)) throw new Error(`Model ${name}: file ${file} is missing.`);
  const bytes = fs.readFileSync(file);
  const digest = sha256(bytes);
  if (digest !== entry.sha256) {
    throw new Error(`Model ${name}: sha256 ${digest} does not match the manifest's ${entry.sha256}.`);
  }
  // The checked file, with scalar scales folded into its convolutions: same function, fewer passes.
  const model = foldedOrShipped(bytes);
  const loaded: LoadedModel[] = [];
  for (const threads of threadings) {
    const session = await ort.InferenceSession.create(model, {
      logSeverityLevel: 3,
      intraOpNumThreads: threads.intraOpNumThreads ?? 1,
      interOpNumThreads: 1,
      graphOptimizationLevel: 'all',
      extra: { session: { intra_op: { allow_spinning: threads.allowSpinning === false ? '0' : '1' } } },
    });
    checkShapes(name, 'input', entry.inputs, session.inputMetadata);
    checkShapes(name, 'output', entry.outputs, session.outputMetadata);
    loaded.push({ entry, session });
  }
  return loaded;
}

/** The folded model, or the checked file as shipped when its encoding is one the fold does not read. */
function foldedOrShipped(bytes: Uint8Array): Uint8Array {
  try {
    return foldConvolutionAffines(bytes).bytes;
  } catch {
    return bytes;
  }
}

function checkShapes(
  name: string,
  kind: 'input' | 'output',
  expected: Record<string, number[]>,
  actual: readonly ort.InferenceSession.ValueMetadata[],
): void {
  for (const [ioName, shape] of Object.entries(expected)) {
    const meta = actual.find((m) => m.name === ioName);
    if (!meta) throw new Error(`Model ${name}: ${kind} ${ioName} is missing.`);
    const got = meta.isTensor ? meta.shape.map((d) => (typeof d === 'number' ? d : -1)) : [];
    if (got.length !== shape.length || got.some((d, i) => d !== -1 && d !== shape[i])) {
      throw new Error(
        `Model ${name}: ${kind} ${ioName} has shape [${got.join(',')}], expected [${shape.join(',')}].`,
      );
    }
  }
}

/** Verify every manifest entry's file and digest without creating sessions (used at start and by health). */
export function verifyManifestFiles(
  manifest: ModelManifest = readManifest(),
): { name: string; ok: boolean; error?: string }[] {
  return manifest.models.map((entry) => {
    try {
      const file = resolveModelFile(entry);
      const digest = sha256File(file);
      if (digest !== entry.sha256) return { name: entry.name, ok: false, error: 'sha256 mismatch' };
      return { name: entry.name, ok: true };
    } catch (error) {
      return { name: entry.name, ok: false, error: error instanceof Error ? error.message : String(error) };
    }
  });
}
