import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { addNoise } from '../render/augment.js';
import { seededRandom } from '../render/random-document.js';
import { renderDocument } from '../render/render-document.js';
import { GreyPyramid, toGrey, toInkGrey } from './grey.js';
import { renderMrzCard, TD3_SPECIMEN, toDecoded } from './test-fixtures.js';
import { findMrzCandidates } from './zone.js';

/** The search's best zone on a TD3 card turned by `degrees` (clockwise), on its own paper or on a `table`. */
async function bestZone(degrees: number, table?: string) {
  const card = table
    ? await sharp(await renderMrzCard(TD3_SPECIMEN, { width: 900 }))
        .rotate(degrees, { background: table })
        .png()
        .toBuffer()
    : await renderMrzCard(TD3_SPECIMEN, { width: 900, rotate: degrees });
  const search = findMrzCandidates(new GreyPyramid(toGrey(await toDecoded(card))));
  const [best] = search.candidates;
  return best?.lines.map((i) => search.lines[i]!) ?? [];
}

describe('findMrzCandidates', () => {
  it('levels a card askew, on its paper or on a darker table, and finds both MRZ lines whole, along the card', async () => {
    const level = await bestZone(0);
    expect(level).toHaveLength(2);
    for (const [degrees, table] of [[-17], [-8], [6], [12], [7, '#707070'], [-11, '#505050']] as const) {
      const lines = await bestZone(degrees, table);
      expect(lines, `${degrees}°`).toHaveLength(2);
      for (const [i, line] of lines.entries()) {
        expect(Math.abs((line.angle * 180) / Math.PI - degrees), `${degrees}° line ${i} angle`).toBeLessThan(
          1,
        );
        // The same 44 characters whatever the turn (a line cut short would not read).
        expect(Math.abs(line.length / level[i]!.length - 1), `${degrees}° line ${i} length`).toBeLessThan(
          0.06,
        );
        expect(Math.abs(line.height / level[i]!.height - 1), `${degrees}° line ${i} height`).toBeLessThan(
          0.25,
        );
      }
    }
  });

  it('finds both MRZ lines of a data page askew on a table in a grainy photo', async () => {
    // Grain joined along rows by the search's closing made level pieces that outweighed the text's direction,
    // and specks joined the lines to the page around them: ink must stand above the page's grain.
    const page = await renderDocument({ format: 'TD3', seed: 3 });
    const margin = Math.round(page.width / 5);
    const photo = await sharp(
      await sharp(page.png)
        .resize(Math.round(page.width * 0.6))
        .extend({ top: margin, bottom: margin, left: margin, right: margin, background: '#6a5a48' })
        .png()
        .toBuffer(),
    )
      .rotate(14, { background: '#6a5a48' })
      .png()
      .toBuffer();
    const image = await toDecoded(photo);
    addNoise(seededRandom(7), { data: image.rgb, width: image.width, height: image.height }, 25);
    const search = findMrzCandidates(new GreyPyramid(toInkGrey(image)));
    const [best] = search.candidates;
    const lines = best?.lines.map((i) => search.lines[i]!) ?? [];
    expect(lines).toHaveLength(2);
    for (const line of lines) expect(Math.abs((line.angle * 180) / Math.PI - 14)).toBeLessThan(1);
  });
});
