/**
 * The `reference_mark` feature: one of the operator-registered marks (coat of arms, seal, logo) is found on the
 * card by ORB matching and a RANSAC homography (in the feature worker). The best-scoring mark wins.
 */
import type { DecodedImage } from '../../../imaging/decode.js';
import type { MarkInput } from '../worker/tasks.js';
import type { FeatureTaskRunner } from '../worker/document-workers.js';
import { clampScore, type FeatureResult } from '../types.js';
import { fitWithin, scaleRegion } from '../downscale.js';
import { CARD_WORKING_SIZE } from './prepare.js';

/** Run the reference-mark detector against the given registered marks. */
export async function detectReferenceMark(
  image: DecodedImage,
  marks: MarkInput[],
  worker: FeatureTaskRunner,
): Promise<FeatureResult> {
  if (marks.length === 0) {
    return {
      feature: 'reference_mark',
      score: 0,
      region: null,
      ms: 0,
      details: { found: false, marks_checked: 0 },
    };
  }
  const started = performance.now();
  // Matching runs at the card working size anyway: send no more pixels than that.
  const fitted = await fitWithin(image, CARD_WORKING_SIZE.max);
  const { result: outcomes, ms: computeMs } = await worker.run({
    kind: 'find_marks',
    image: { rgb: fitted.image.rgb, width: fitted.image.width, height: fitted.image.height },
    marks,
  });
  // `ms` is the matcher's own time; waiting behind other tasks in the worker is reported apart.
  const ms = Math.round(computeMs);
  const waited = Math.round(performance.now() - started - computeMs);
  const f = fitted.factor;
  const best = [...outcomes].sort((a, b) => b.score - a.score || b.inliers - a.inliers)[0];
  if (!best)
    return {
      feature: 'reference_mark',
      score: 0,
      region: null,
      ms,
      details: { found: false, marks_checked: 0, queue_ms: waited },
    };
  return {
    feature: 'reference_mark',
    score: clampScore(best.score),
    region: scaleRegion(best.region, f),
    ms,
    details: {
      found: best.region !== null,
      mark_id: best.id,
      mark_name: best.name,
      matches: best.matches,
      inliers: best.inliers,
      reprojection_error: best.meanError,
      correlation: best.correlation,
      outline:
        best.outline?.map(([x, y]) => [Math.round(x * f * 100) / 100, Math.round(y * f * 100) / 100]) ?? null,
      marks_checked: outcomes.length,
      queue_ms: waited,
      per_mark: outcomes.map((o) => ({
        name: o.name,
        inliers: o.inliers,
        correlation: o.correlation,
        score: clampScore(o.score),
      })),
    },
  };
}
