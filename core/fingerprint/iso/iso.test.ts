import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CoreError } from '../../errors.js';
import { extractFeatures } from '../extract/index.js';
import { syntheticFingerprint } from '../synthetic/index.js';
import { decodeIsoRecord, encodeIsoRecord, isoRecordToFeatures } from './index.js';

const ANGLE_UNIT = (2 * Math.PI) / 256;
const SHARED = '/work/shared/data/fingerprints';

describe('ISO/IEC 19794-2:2005 records', () => {
  const features = extractFeatures(syntheticFingerprint(8, 0));

  it('writes the 2005 header and a record length that matches the bytes', () => {
    const bytes = encodeIsoRecord(features, { fingerPosition: 2 });
    expect(bytes.toString('latin1', 0, 8)).toBe('FMR\0 20\0');
    expect(bytes.readUInt32BE(8)).toBe(bytes.length);
    expect(bytes.readUInt16BE(18)).toBe(197); // 500 dpi in pixels per centimetre
    expect(bytes[22]).toBe(1);
    expect(bytes[24]).toBe(2);
    expect(bytes[27]).toBe(features.minutiae.length);
  });

  it('round-trips generated features within the format precision', () => {
    const record = decodeIsoRecord(encodeIsoRecord(features));
    const back = isoRecordToFeatures(record);
    expect([back.width, back.height]).toEqual([features.width, features.height]);
    expect(back.dpi).toBe(500);
    expect(back.minutiae.length).toBe(features.minutiae.length);
    const sorted = [...features.minutiae].sort((a, b) => b.quality - a.quality);
    sorted.forEach((m, i) => {
      const b = back.minutiae[i]!;
      expect(Math.abs(b.x - m.x)).toBeLessThanOrEqual(0.5);
      expect(Math.abs(b.y - m.y)).toBeLessThanOrEqual(0.5);
      const turn = Math.abs(b.angle - m.angle) % (2 * Math.PI);
      expect(Math.min(turn, 2 * Math.PI - turn)).toBeLessThanOrEqual(ANGLE_UNIT / 2 + 1e-9);
      expect(b.type).toBe(m.type);
      expect(b.quality).toBe(Math.round(m.quality));
    });
  });

  it('rejects foreign and truncated data cleanly', () => {
    const bytes = encodeIsoRecord(features);
    expect(() => decodeIsoRecord(Buffer.from('not a record at all, really not'))).toThrow(CoreError);
    expect(() => decodeIsoRecord(bytes.subarray(0, bytes.length - 10))).toThrow(CoreError);
    const v30 = Buffer.from(bytes);
    v30.write('030', 4, 'latin1');
    expect(() => decodeIsoRecord(v30)).toThrow(/version/);
  });

  const folders = fs.existsSync(SHARED)
    ? fs.readdirSync(SHARED).filter((d) => d.endsWith('.secugen_iso'))
    : [];
  it.skipIf(folders.length === 0)(
    'reads every SecuGen record of the evaluation data (skipped when /work/shared is absent)',
    () => {
      let files = 0;
      for (const folder of folders) {
        for (const name of fs.readdirSync(path.join(SHARED, folder)).filter((n) => n.endsWith('.iso'))) {
          const record = decodeIsoRecord(fs.readFileSync(path.join(SHARED, folder, name)));
          expect(record.views.length).toBe(1);
          const view = record.views[0]!;
          expect(view.minutiae.length).toBeGreaterThan(0);
          for (const m of view.minutiae) {
            expect(m.angle).toBeLessThan(2 * Math.PI);
            expect(['ending', 'bifurcation', 'other']).toContain(m.type);
          }
          files++;
        }
      }
      expect(files).toBe(folders.length * 80);
    },
  );
});
