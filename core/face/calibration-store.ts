import fs from 'node:fs';
import { appFile } from '../assets/assets.js';
import type { FmrCalibration } from './math/calibration.js';

/** Liveness operating point chosen on the labelled data, with the figures measured there. */
export interface LivenessCalibration {
  model: string;
  source: string;
  /** Bona fide when the live-class probability is at least this. */
  threshold: number;
  figures: Record<string, number>;
}

/** Committed calibration files, stored with the model code they describe. */
export const FMR_CALIBRATION_FILE = appFile('faceCalibration');
export const LIVENESS_CALIBRATION_FILE = appFile('livenessCalibration');

function readJson(file: string): Record<string, unknown> {
  // A missing or broken calibration fails the engine's start: thresholds would otherwise be guesses.
  if (!fs.existsSync(file))
    throw new Error(`Face calibration ${file} is missing: run npm run eval:face / eval:liveness.`);
  const value = JSON.parse(fs.readFileSync(file, 'utf8')) as unknown;
  if (typeof value !== 'object' || value === null)
    throw new Error(`Face calibration ${file} is not a JSON object.`);
  return value as Record<string, unknown>;
}

/** The similarity-to-FMR calibration written by eval:face. */
export function readFmrCalibration(file = FMR_CALIBRATION_FILE): FmrCalibration {
  const value = readJson(file);
  const points = value.points;
  const tail = value.tail as Record<string, unknown> | undefined;
  if (!Array.isArray(points) || points.length < 2 || typeof tail?.rate !== 'number') {
    throw new Error(`Face calibration ${file} has no points or tail.`);
  }
  return value as unknown as FmrCalibration;
}

/** The liveness threshold written by eval:liveness. */
export function readLivenessCalibration(file = LIVENESS_CALIBRATION_FILE): LivenessCalibration {
  const value = readJson(file);
  if (typeof value.threshold !== 'number' || value.threshold < 0 || value.threshold > 1) {
    throw new Error(`Liveness calibration ${file} has no threshold in [0, 1].`);
  }
  return value as unknown as LivenessCalibration;
}
