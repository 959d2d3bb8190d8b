import fs from 'node:fs';
import { expect, test } from '@playwright/test';
import type { EngineAvailability } from '../core/http/routes/console/api-types.js';
import { ADMIN, AUDITOR, createUser, engines, setupAdmin, signIn } from './support/console.js';
import { fixture, screenshot } from './support/paths.js';
import { seedAudit } from './support/seed-audit.js';
import { startTestServer, type TestServer } from './support/server.js';

const SEEDED = 100_000;
let server: TestServer;
let admin: string;
let available: EngineAvailability;

test.beforeAll(async () => {
  server = await startTestServer(async (dataDir) => {
    await seedAudit(dataDir, SEEDED);
  });
  admin = await setupAdmin(server);
  await createUser(server, admin, AUDITOR, 'auditor');
  available = await engines(server, admin);
});

test.afterAll(async () => {
  await server.stop();
});

test.describe.configure({ mode: 'serial' });

test('audit paging stays fast at 100k rows (first page and deepest page)', async () => {
  const timed = async (path: string): Promise<number> => {
    const started = performance.now();
    const response = await fetch(`${server.url}${path}`, { headers: { cookie: admin } });
    expect(response.status).toBe(200);
    await response.json();
    return performance.now() - started;
  };
  await timed('/api/console/audit?limit=50');
  expect(await timed('/api/console/audit?limit=50')).toBeLessThan(500);
  expect(await timed('/api/console/audit?limit=50&before=120')).toBeLessThan(500);
  expect(await timed('/api/console/audit?limit=50&failedStep=id_card_check&before=5000')).toBeLessThan(500);
});

/** Issue an API key as the admin and make one audited call with it. */
async function callWithNewKey(description: string): Promise<{ id: string; prefix: string }> {
  const created = await fetch(`${server.url}/api/console/keys`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie: admin },
    body: JSON.stringify({ description }),
  });
  expect(created.status).toBe(201);
  const key = (await created.json()) as { id: string; prefix: string; key: string };
  const call = await fetch(`${server.url}/v2/verify`, { method: 'POST', headers: { 'x-api-key': key.key } });
  expect(call.status).toBeGreaterThanOrEqual(400);
  return key;
}

test('auditor: charts, filters, keyset paging, detail drawer, CSV export, chain check', async ({ page }) => {
  const key = await callWithNewKey('Core banking onboarding backend');
  await signIn(page, server, AUDITOR);
  await expect(page.getByRole('heading', { name: 'Results and audit' })).toBeVisible();
  await expect(page.getByRole('img', { name: /Daily request volume over \d+ days/ })).toBeVisible();
  await expect(page.getByRole('img', { name: 'Daily rejection rate by failed step' })).toBeVisible();
  const table = page.getByRole('table', { name: 'Audit log' });
  await expect(table.locator('tbody tr')).toHaveCount(50);
  // Callers by the name people know: the key's description, the console account.
  const keyed = table.getByRole('row', { name: /Audit row \d+/ }).filter({ hasText: '/v2/verify' });
  await expect(keyed.first().locator('td').nth(6)).toHaveText(
    `Core banking onboarding backend (key idv_${key.prefix}…)`,
  );
  await expect(table.locator('tbody tr').first().locator('td').nth(6)).toHaveText(
    `${AUDITOR.username} (console)`,
  );
  const firstSeq = Number(await table.locator('tbody tr').first().locator('td').first().textContent());
  await page.getByRole('button', { name: 'Older' }).click();
  await expect(page.getByText('Page 2')).toBeVisible();
  await expect(table.locator('tbody tr').first().locator('td').first()).toHaveText(String(firstSeq - 50));
  await page.getByRole('button', { name: 'Newer' }).click();
  await expect(page.getByText('Page 1')).toBeVisible();
  await page.screenshot({ path: screenshot('08-audit') });

  const filters = page.getByRole('form', { name: 'Audit filters' });
  await filters.getByLabel('Failed step').selectOption('face_match');
  await filters.getByLabel('Caller id').fill('seed-key-branch');
  await filters.getByRole('button', { name: 'Apply filters' }).click();
  await expect(table.locator('tbody tr').first()).toContainText('face_match');
  const steps = await table.locator('tbody tr td:nth-child(6)').allTextContents();
  expect(new Set(steps)).toEqual(new Set(['face_match']));
  const callers = await table.locator('tbody tr td:nth-child(7)').allTextContents();
  expect(new Set(callers)).toEqual(new Set(['seed-key-branch']));

  await table.locator('tbody tr').first().click();
  const drawer = page.getByRole('dialog', { name: /Audit row \d+/ });
  await expect(drawer).toContainText('Row hash');
  await expect(drawer).toContainText('face_match');
  await page.screenshot({ path: screenshot('09-audit-drawer') });
  await drawer.getByRole('button', { name: 'Close' }).click();
  await expect(drawer).toBeHidden();

  const download = page.waitForEvent('download');
  await page.getByRole('link', { name: 'Export CSV' }).click();
  const file = await (await download).path();
  const lines = fs.readFileSync(file, 'utf8').trim().split('\n');
  expect(lines[0]).toMatch(/^seq,time,requestId/);
  expect(lines.length).toBeGreaterThan(100);
  expect(lines.slice(1).every((line) => line.includes(',face_match,'))).toBe(true);

  await page.getByRole('button', { name: 'Verify hash chain' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Chain intact' })).toContainText(
    /\d+ rows verified/,
    { timeout: 120_000 },
  );
});

test('admin settings: thresholds as 1 in N, orchestrator, bind address with a LAN warning', async ({
  page,
}) => {
  await signIn(page, server, ADMIN);
  await page.getByRole('link', { name: 'Settings' }).click();
  await expect(page.getByRole('heading', { name: 'Settings' })).toBeVisible();

  // The pickers show what the server decides with until an admin changes it: 1 in 1,000 (face), 1 in 10,000.
  for (const [engine, label, inUse] of [
    ['face', 'Face matching', '1000'],
    ['fingerprint', 'Fingerprint matching', '10000'],
  ] as const) {
    if (!available[engine]) continue;
    await expect(page.getByLabel(`${label}: accepted false matches`)).toHaveValue(inUse);
    await expect(page.getByTestId(`${engine}-threshold-in-use`)).toContainText('server default');
    const table = page.getByRole('table', { name: `${label} calibration` });
    await expect(table.locator('th')).toHaveText(['False matches', 'Score threshold']);
    const source = (await table.locator('xpath=following-sibling::p[1]').textContent()) ?? '';
    // Each count appears once (the model version, fp-2026.11-11, is a name, not a count).
    const numbers = source.replace(/model \S+/, '').match(/\d[\d,]*/g) ?? [];
    expect(new Set(numbers.map((n) => n.replace(/,/g, ''))).size).toBe(numbers.length);
  }
  if (available.fingerprint) {
    await page.getByLabel('Fingerprint matching: accepted false matches').selectOption('100000');
    await expect(page.getByRole('table', { name: 'Fingerprint matching calibration' })).toContainText(
      '1 in 1,000,000',
    );
    await page.getByRole('button', { name: 'Save fingerprint matching threshold' }).click();
    await expect(
      page.getByText('Fingerprint matching threshold set to 1 in 100,000 false matches.'),
    ).toBeVisible();
    // The reader setting switches the fingerprint calibration; the threshold keeps its 1 in N.
    const calibration = page.getByText(/^Calibration: Impostor scores of .* FVC/);
    await expect(calibration).toContainText('turn upright');
    const fingerprint = page.getByRole('form', { name: 'Fingerprint settings' });
    await fingerprint.getByLabel(/May face any way/).check();
    await fingerprint.getByLabel('A finger enrolled under another number').selectOption('reject');
    await fingerprint.getByRole('button', { name: 'Save fingerprint settings' }).click();
    await expect(
      fingerprint.getByText(/Fingerprint settings saved: reader may face any way, duplicates refused/),
    ).toBeVisible();
    await expect(calibration).toContainText('turn any');
    await fingerprint.getByLabel('Enrollment quality floor (0-100)').fill('101');
    await fingerprint.getByRole('button', { name: 'Save fingerprint settings' }).click();
    // Out of range: the browser does not send it.
    expect(
      await fingerprint
        .getByLabel('Enrollment quality floor (0-100)')
        .evaluate((input) => (input as unknown as { validity: { valid: boolean } }).validity.valid),
    ).toBe(false);
    await fingerprint.getByLabel('Enrollment quality floor (0-100)').fill('20');
    await fingerprint.getByLabel(/Fixed in place/).check();
    await fingerprint.getByLabel('A finger enrolled under another number').selectOption('flag');
    await fingerprint.getByRole('button', { name: 'Save fingerprint settings' }).click();
    await expect(
      fingerprint.getByText(/Fingerprint settings saved: reader fixed in place, duplicates flagged/),
    ).toBeVisible();
    await expect(calibration).toContainText('turn upright');
  } else {
    await expect(page.getByText('Fingerprint matching is not available yet')).toBeVisible();
  }
  if (!available.face) await expect(page.getByText('Face matching is not available yet')).toBeVisible();
  if (available.document) {
    const profile = page.getByRole('form', { name: 'Profile default' });
    await profile.getByLabel('Description').fill('Any ICAO document (edited in e2e)');
    await profile.getByRole('button', { name: 'Save profile default' }).click();
    await expect(page.getByText('Profile default saved.')).toBeVisible();
    const marks = page.getByRole('form', { name: 'New reference mark' });
    await marks.getByLabel('Mark name').fill('Utopia arms');
    await marks.getByLabel('Mark image').setInputFiles(fixture('mark-arms.png'));
    await marks.getByRole('button', { name: 'Register mark' }).click();
    await expect(page.getByText(/Reference mark Utopia arms registered/)).toBeVisible();
    const preview = page.getByRole('img', { name: 'Reference mark Utopia arms' });
    await expect(preview).toBeVisible();
    await expect
      .poll(() => preview.evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth))
      .toBeGreaterThan(0);
  } else {
    await expect(page.getByText('ID-document checking is not available yet')).toBeVisible();
  }

  if (available.orchestrator) {
    const orchestrator = page.getByRole('form', { name: 'Orchestrator settings' });
    await orchestrator.getByLabel('Liveness', { exact: true }).fill('0.5');
    await orchestrator.getByRole('button', { name: 'Save orchestrator settings' }).click();
    await expect(page.getByText('Orchestrator settings saved')).toBeVisible();
    await orchestrator.getByLabel('Review from', { exact: true }).fill('0.99');
    await orchestrator.getByRole('button', { name: 'Save orchestrator settings' }).click();
    await expect(orchestrator.getByRole('alert')).toContainText('review_from');
  } else {
    await expect(page.getByText('The orchestrator is not available yet')).toBeVisible();
  }

  await page.getByLabel('Bind address', { exact: true }).fill('0.0.0.0');
  await page.getByLabel('Port', { exact: true }).fill('9443');
  await expect(page.getByText('This exposes the API on the network while in observe mode')).toBeVisible();
  await page.screenshot({ path: screenshot('10-settings'), fullPage: true });
  await page.getByRole('button', { name: 'Save bind address' }).click();
  const confirm = page.getByRole('dialog', { name: 'Expose the API on the network in observe mode?' });
  await confirm.getByRole('button', { name: 'Expose anyway' }).click();
  await expect(page.getByText('the server will listen on 0.0.0.0:9443 after a restart')).toBeVisible();
  const settings = await fetch(`${server.url}/api/console/settings`, { headers: { cookie: admin } });
  expect(((await settings.json()) as { server: { pendingRestart: boolean } }).server.pendingRestart).toBe(
    true,
  );
});

test.describe("in the operator's locale", () => {
  test.use({ locale: 'de-DE', timezoneId: 'UTC' });

  test("audit rows, date filters and API keys write dates one way, the browser locale's", async ({
    page,
  }) => {
    await signIn(page, server, ADMIN);
    const german = new Intl.DateTimeFormat('de-DE', {
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      timeZone: 'UTC',
    });
    const newest = await fetch(`${server.url}/api/console/audit?limit=1`, { headers: { cookie: admin } });
    const [row] = ((await newest.json()) as { rows: { seq: number; time: string }[] }).rows;
    await page.getByRole('link', { name: 'Results & audit' }).click();
    const cells = page.getByRole('row', { name: `Audit row ${row!.seq}` }).locator('td');
    await expect(cells.nth(1)).toHaveText(german.format(new Date(row!.time)));

    await page.getByRole('link', { name: 'API keys' }).click();
    const keys = await fetch(`${server.url}/api/console/keys`, { headers: { cookie: admin } });
    const [key] = ((await keys.json()) as { keys: { description: string; createdAt: string }[] }).keys;
    const listed = page.getByRole('table', { name: 'API keys' }).getByRole('row', { name: key!.description });
    await expect(listed.locator('td').nth(2)).toHaveText(german.format(new Date(key!.createdAt)));
  });
});
