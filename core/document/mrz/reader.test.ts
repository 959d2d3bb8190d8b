import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { disposeMrzReader, readMrz } from './index.js';
import { renderMrzCard, TD1_SPECIMEN, TD3_SPECIMEN, toDecoded } from './test-fixtures.js';

describe('readMrz (real PP-OCRv4 model, rendered cards)', () => {
  afterAll(async () => disposeMrzReader());

  it('reads a TD3 passport zone with every check digit and locates it at the bottom', async () => {
    const image = await toDecoded(await renderMrzCard(TD3_SPECIMEN));
    const reading = await readMrz(image);
    expect(reading).toMatchObject({ format: 'TD3', valid: true, lines: TD3_SPECIMEN });
    expect(reading!.fields).toMatchObject({ lastName: 'ERIKSSON', documentNumber: 'L898902C3' });
    expect(reading!.region.y).toBeGreaterThan(image.height / 2);
    expect(reading!.region.y + reading!.region.height).toBeLessThanOrEqual(image.height);
    expect(reading!.confidence).toBeGreaterThan(0.5);
  });

  it('reads a three-line TD1 identity card', async () => {
    const image = await toDecoded(await renderMrzCard(TD1_SPECIMEN, { width: 800 }));
    expect(await readMrz(image)).toMatchObject({ format: 'TD1', valid: true, lines: TD1_SPECIMEN });
  });

  it('reads a card scanned upside down and one photographed 7° askew', async () => {
    const upsideDown = await readMrz(await toDecoded(await renderMrzCard(TD3_SPECIMEN, { rotate: 180 })));
    expect(upsideDown).toMatchObject({ valid: true, lines: TD3_SPECIMEN });
    const askew = await readMrz(await toDecoded(await renderMrzCard(TD3_SPECIMEN, { rotate: 7 })));
    expect(askew).toMatchObject({ valid: true, lines: TD3_SPECIMEN });
  });

  it('reads a card turned a quarter', async () => {
    const turned = await readMrz(await toDecoded(await renderMrzCard(TD3_SPECIMEN, { rotate: 90 })));
    expect(turned).toMatchObject({ valid: true, lines: TD3_SPECIMEN });
    expect(turned!.region.width).toBeLessThan(turned!.region.height);
  });

  it('answers null for a page of ordinary text and for a blank image', async () => {
    const text = await renderMrzCard([], {
      printed: ['The quick brown fox jumps over the lazy dog', 'Pack my box with five dozen liquor jugs'],
    });
    expect(await readMrz(await toDecoded(text))).toBeNull();
    const blank = await sharp({ create: { width: 400, height: 300, channels: 3, background: '#ffffff' } })
      .png()
      .toBuffer();
    expect(await readMrz(await toDecoded(blank))).toBeNull();
  });
});
