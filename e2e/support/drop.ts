import fs from 'node:fs';
import path from 'node:path';
import type { Locator, Page } from '@playwright/test';

interface BrowserGlobals {
  DataTransfer: new () => { items: { add(file: unknown): void } };
  File: new (parts: unknown[], name: string, options: { type: string }) => unknown;
  atob(text: string): string;
}

/** Drop a file onto an element the way a user drags one from the desktop (a real DataTransfer with a File). */
export async function dropFile(page: Page, target: Locator, file: string, type: string): Promise<void> {
  const data = fs.readFileSync(file).toString('base64');
  const transfer = await page.evaluateHandle(
    ({ data, name, type }) => {
      const g = globalThis as unknown as BrowserGlobals;
      const binary = g.atob(data);
      const bytes = new Uint8Array(binary.length);
      for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
      const dataTransfer = new g.DataTransfer();
      dataTransfer.items.add(new g.File([bytes], name, { type }));
      return dataTransfer;
    },
    { data, name: path.basename(file), type },
  );
  await target.dispatchEvent('dragover', { dataTransfer: transfer });
  await target.dispatchEvent('drop', { dataTransfer: transfer });
}
