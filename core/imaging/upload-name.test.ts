import { describe, expect, it } from 'vitest';
import { decodeImage } from './decode.js';
import { uploadName } from './upload-name.js';

describe('uploadName', () => {
  it('names a field once: "The image", "The selfie image"', () => {
    expect(uploadName('file', 'image')).toBe('The image');
    expect(uploadName('image', 'file')).toBe('The file');
    expect(uploadName('selfie', 'image')).toBe('The selfie image');
  });

  it('gives decoder messages that never repeat a word', async () => {
    for (const field of ['file', 'image', 'id_card']) {
      for (const bytes of [
        Buffer.alloc(0),
        Buffer.from('not an image at all'),
        Buffer.from([0xff, 0xd8, 0xff, 0xe0]),
      ]) {
        const error = await decodeImage(bytes, { field }).catch((e: unknown) => e);
        expect(error).toBeInstanceOf(Error);
        expect((error as Error).message).not.toMatch(/\b(\w+) \1\b/i);
      }
    }
  });
});
