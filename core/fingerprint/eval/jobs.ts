import { basename } from 'node:path';
import type { FingerTurn } from '../match/index.js';
import { applyCondition, type Condition } from './conditions.js';
import { loadSet } from './dataset.js';
import { runSet, type SetResult } from './run-set.js';

/** One set under one condition: plain data, so that it can run on a worker thread. */
export interface EvalJob {
  dir: string;
  condition: Condition;
  turn: FingerTurn;
  /** Also score the impostors with the turn 'any' (calibration). */
  anyTurn?: boolean;
  /** Keep the score lists in the result (calibration); otherwise only the figures travel back. */
  keepScores?: boolean;
}

/** The set's name: its folder's. */
export function setName(dir: string): string {
  return basename(dir.replace(/\/+$/, ''));
}

/** Load the set, present it under the condition and run the "all" protocol on it. */
export async function evaluateJob(job: EvalJob): Promise<SetResult> {
  const impressions = (await loadSet(job.dir)).map((imp) => ({
    ...imp,
    image: applyCondition(job.condition, imp.image),
  }));
  const result = runSet(setName(job.dir), impressions, { turn: job.turn, anyTurn: job.anyTurn ?? false });
  if (job.keepScores) return result;
  return { ...result, genuine: [], impostor: [], impostorAnyTurn: [] };
}
