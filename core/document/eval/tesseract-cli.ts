import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** Whether Debian's native `tesseract` CLI (package tesseract-ocr) is on the PATH. */
export async function hasTesseractCli(): Promise<boolean> {
  try {
    await run('tesseract', ['--version']);
    return true;
  } catch {
    return false;
  }
}

/** Run the native CLI on an image file with the `eng` model, a page-segmentation mode and a character whitelist. */
export async function tesseractCli(file: string, psm: number, whitelist: string): Promise<string> {
  const { stdout } = await run(
    'tesseract',
    [file, 'stdout', '-l', 'eng', '--psm', String(psm), '-c', `tessedit_char_whitelist=${whitelist}`],
    { maxBuffer: 4 * 1024 * 1024, env: { ...process.env, OMP_THREAD_LIMIT: '1' } },
  );
  return stdout;
}

/**
 * MRZ candidates in free OCR text: lines that, without spaces, are 28–46 MRZ characters with a filler;
 * the last 3 (or 2) of them, as an MRZ ends the page.
 */
export function mrzLinesFromText(text: string): string[][] {
  const lines = text
    .split('\n')
    .map((l) => l.replace(/\s+/g, '').toUpperCase())
    .filter((l) => /^[A-Z0-9<]{28,46}$/.test(l) && l.includes('<'));
  const fit = (l: string, n: number): string => (l.length >= n ? l.slice(0, n) : l.padEnd(n, '<'));
  const out: string[][] = [];
  const last3 = lines.slice(-3);
  if (last3.length === 3) out.push(last3.map((l) => fit(l, 30)));
  const last2 = lines.slice(-2);
  if (last2.length === 2) {
    const n = Math.max(...last2.map((l) => l.length)) > 40 ? 44 : 36;
    out.push(last2.map((l) => fit(l, n)));
  }
  return out;
}
