import { describe, expect, it } from 'vitest';
import { estimatePeriod } from './frequency.js';
import { blockAngle, estimateOrientation } from './orientation.js';
import { toWorkingResolution } from './resample.js';
import { renderRidges } from './test-patterns.js';

function angleError(a: number, b: number): number {
  const d = Math.abs(a - b) % Math.PI;
  return Math.min(d, Math.PI - d);
}

describe('orientation field and ridge period', () => {
  for (const degrees of [0, 30, 75, 120]) {
    it(`recovers ridges at ${degrees} degrees`, () => {
      const theta = (degrees * Math.PI) / 180;
      const img = toWorkingResolution(renderRidges(160, 9, theta), 500);
      const field = estimateOrientation(img);
      let worst = 0;
      for (let by = 3; by < field.rows - 3; by++) {
        for (let bx = 3; bx < field.cols - 3; bx++) {
          const b = by * field.cols + bx;
          worst = Math.max(worst, angleError(blockAngle(field, b), theta));
          expect(field.coherence[b]).toBeGreaterThan(0.8);
        }
      }
      expect((worst * 180) / Math.PI).toBeLessThan(4);
      const mask = new Uint8Array(field.cols * field.rows).fill(1);
      const period = estimatePeriod(img, field, mask);
      const centre = period[(field.rows >> 1) * field.cols + (field.cols >> 1)]!;
      expect(centre).toBeGreaterThan(8.3);
      expect(centre).toBeLessThan(9.7);
    });
  }
});
