import { expect, test } from '@playwright/test';
import sharp from 'sharp';
import type { EngineAvailability } from '../core/http/routes/console/api-types.js';
import { createUser, engines, fillMobile, OPERATOR, setupAdmin, signIn } from './support/console.js';
import { dropFile } from './support/drop.js';
import { fixture, screenshot } from './support/paths.js';
import { startTestServer, type TestServer } from './support/server.js';

/** Records, in the page, every change of the three steps' statuses as `window.stepLog` ("running,waiting,waiting"). */
const RECORD_STEPS = `(() => {
  const seen = [];
  window.stepLog = seen;
  new MutationObserver(() => {
    const line = [...document.querySelectorAll('li.step')].map((li) => li.getAttribute('data-status')).join(',');
    if (seen.at(-1) !== line) seen.push(line);
  }).observe(document.body, { subtree: true, attributes: true, attributeFilter: ['data-status'] });
})()`;

let server: TestServer;
let available: EngineAvailability;
let admin: string;

test.beforeAll(async () => {
  server = await startTestServer();
  admin = await setupAdmin(server);
  await createUser(server, admin, OPERATOR, 'operator');
  available = await engines(server, admin);
});

test.afterAll(async () => {
  await server.stop();
});

test.describe.configure({ mode: 'serial' });

test('enroll: live mobile validation, print by file and by drag and drop, preview, de-duplication', async ({
  page,
}) => {
  await signIn(page, server, OPERATOR);
  await page.getByRole('link', { name: 'Enroll' }).click();
  await expect(page.getByRole('heading', { name: 'Enroll a fingerprint' })).toBeVisible();
  if (!available.fingerprint) {
    await expect(page.getByText('Fingerprint enrollment is not available yet')).toBeVisible();
    await page.screenshot({ path: screenshot('05-enroll') });
    return;
  }
  await page.getByLabel('Number', { exact: true }).fill('12345');
  await page.getByLabel('Number', { exact: true }).blur();
  await expect(page.getByText('Not a valid mobile number for this country.')).toBeVisible();
  await fillMobile(page, '7911 123456');
  await page.getByLabel('Fingerprint image', { exact: true }).setInputFiles(fixture('finger-a-1.png'));
  if (available.fingerprintPreview) {
    await expect(page.getByTestId('fingerprint-quality')).toContainText('minutiae');
    await expect(page.getByRole('img', { name: /Fingerprint with \d+ minutiae marked/ })).toBeVisible();
  } else {
    await expect(page.getByText('Quality preview is not available on this server.')).toBeVisible();
  }
  await page.getByRole('button', { name: 'Enroll fingerprint' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Enrolled' })).toContainText('+4479');
  await page.screenshot({ path: screenshot('05-enroll') });

  // The same finger (another impression) under another number, dropped onto the zone: flagged as a duplicate.
  await page.getByRole('button', { name: 'Clear' }).click();
  await fillMobile(page, '7400 123456');
  await dropFile(
    page,
    page.getByRole('group', { name: 'Fingerprint image drop zone' }),
    fixture('finger-a-2.png'),
    'image/png',
  );
  await expect(page.getByRole('img', { name: /Fingerprint/ })).toBeVisible();
  await page.getByRole('button', { name: 'Enroll fingerprint' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Possible duplicate' })).toContainText(
    'already enrolled under',
  );
  await page.screenshot({ path: screenshot('05b-enroll-duplicate') });
});

test('verify: selfie from the camera with live feedback, card from a file, three steps in order', async ({
  page,
}) => {
  await signIn(page, server, OPERATOR);
  await page.getByRole('link', { name: 'Verify' }).click();
  await fillMobile(page, '7911 123456');
  await page.getByLabel('Fingerprint image', { exact: true }).setInputFiles(fixture('finger-a-2.png'));

  await page.getByRole('button', { name: 'Start selfie camera' }).click();
  await expect(page.getByLabel('Selfie camera preview')).toBeVisible();
  await expect
    .poll(() =>
      page
        .getByLabel('Selfie camera preview')
        .evaluate((v) => (v as unknown as { videoWidth: number }).videoWidth),
    )
    .toBeGreaterThan(0);
  const feedback = page.getByTestId('selfie-feedback');
  if (available.faceQuality) {
    await expect(feedback).toHaveText(
      /^(Face found|No face|More than one face|Face too small|Picture blurred|Too dark|Too bright|Eyes closed)/,
    );
  } else {
    await expect(feedback).toHaveText('');
  }
  await page.screenshot({ path: screenshot('06-verify-camera') });
  await page.getByRole('button', { name: 'Capture selfie' }).click();
  await expect(page.getByRole('img', { name: /^Selfie/ })).toBeVisible();
  await page.getByLabel('ID card image', { exact: true }).setInputFiles(fixture('id-card.jpg'));
  await expect(page.getByRole('img', { name: /^ID card/ })).toBeVisible();

  await page.evaluate(RECORD_STEPS);
  await page.getByRole('button', { name: 'Run verification' }).click();
  const fingerprint = page.getByRole('listitem', { name: 'Fingerprint step' });
  const face = page.getByRole('listitem', { name: 'Face match step' });
  const card = page.getByRole('listitem', { name: 'ID card security feature step' });
  const verdict = page.getByRole('status').filter({ hasText: /^(Verified|Rejected at|Not verified)/ });
  await expect(verdict).toBeVisible({ timeout: 120_000 });
  // At 1280x800 the verdict is on screen without scrolling.
  await page.evaluate('window.scrollTo(0, 0)');
  await expect(verdict).toBeInViewport({ ratio: 1 });
  await page.screenshot({ path: screenshot('07-verify-result') });

  if (!available.fingerprint) {
    await expect(fingerprint).toHaveAttribute('data-status', 'unavailable');
    await expect(fingerprint).toContainText('not available yet');
    await expect(face).toHaveAttribute('data-status', 'skipped');
    await expect(card).toHaveAttribute('data-status', 'skipped');
    await expect(page.getByText('A check could not run')).toBeVisible();
    return;
  }
  await expect(fingerprint).toHaveAttribute('data-status', 'passed');
  await expect(fingerprint).toContainText('against threshold');
  await expect(fingerprint).toContainText(/1 false match in [\d,]+/);
  if (!available.face) {
    await expect(face).toHaveAttribute('data-status', 'unavailable');
    await expect(card).toHaveAttribute('data-status', 'skipped');
    return;
  }
  await expect(face).toHaveAttribute('data-status', 'passed');
  if (!available.document) {
    await expect(card).toHaveAttribute('data-status', 'unavailable');
    return;
  }
  await expect(card).toHaveAttribute('data-status', 'passed');
  await expect(page.getByRole('status').filter({ hasText: 'Verified' })).toContainText(
    'All three checks passed',
  );
  // The operator saw each step start and finish live: the fingerprint's result came while the others still ran.
  const log = await page.evaluate<string[]>('window.stepLog');
  // A fast fingerprint check can start and pass within one read of the stream: the page then first shows it passed.
  expect(['running,waiting,waiting', 'passed,running,waiting']).toContain(log[0]);
  expect(log).toContain('passed,running,waiting');
  expect(log).toContain('passed,passed,running');
  expect(log.at(-1)).toBe('passed,passed,passed');
  // The threshold's rate and this score's rarity are each named.
  await expect(fingerprint.getByRole('definition').first()).toHaveText(/^set to 1 false match in [\d,]+$/);
  await expect(fingerprint).toContainText('This score');
});

test('verify: a print of another finger is rejected at the fingerprint step with a plain reason', async ({
  page,
}) => {
  await signIn(page, server, OPERATOR);
  await page.getByRole('link', { name: 'Verify' }).click();
  await fillMobile(page, '7911 123456');
  await page.getByLabel('Fingerprint image', { exact: true }).setInputFiles(fixture('finger-b-1.png'));
  await page.getByLabel('Selfie image', { exact: true }).setInputFiles(fixture('selfie.jpg'));
  await page.getByLabel('ID card image', { exact: true }).setInputFiles(fixture('id-card.jpg'));
  await page.getByRole('button', { name: 'Run verification' }).click();
  const fingerprint = page.getByRole('listitem', { name: 'Fingerprint step' });
  if (!available.fingerprint) {
    await expect(fingerprint).toHaveAttribute('data-status', 'unavailable');
    return;
  }
  await expect(fingerprint).toHaveAttribute('data-status', 'rejected', { timeout: 120_000 });
  await expect(
    page.getByRole('alert').filter({ hasText: 'Rejected at the fingerprint check' }),
  ).toContainText('does not match');
  await expect(page.getByRole('listitem', { name: 'Face match step' })).toHaveAttribute(
    'data-status',
    'skipped',
  );
});

test("verify: a card without its security feature is rejected at the ID card check with the server's reason", async ({
  page,
}) => {
  if (!available.fingerprint || !available.face || !available.document) return;
  await signIn(page, server, OPERATOR);
  await page.getByRole('link', { name: 'Verify' }).click();
  await fillMobile(page, '7911 123456');
  await page.getByLabel('Fingerprint image', { exact: true }).setInputFiles(fixture('finger-a-2.png'));
  await page.getByLabel('Selfie image', { exact: true }).setInputFiles(fixture('selfie.jpg'));
  await page.getByLabel('ID card image', { exact: true }).setInputFiles(fixture('id-card-plain.jpg'));
  await page.getByRole('button', { name: 'Run verification' }).click();
  const verdict = page.getByRole('alert').filter({ hasText: 'Rejected at the ID card check' });
  await expect(verdict).toBeVisible({ timeout: 120_000 });
  await expect(verdict).toContainText('security feature was not found');
  // The API's own reason: which features the card's profile needs.
  await expect(verdict).toContainText(/profile default needs .+ or .+/);
  await page.evaluate('window.scrollTo(0, 0)');
  await expect(verdict).toBeInViewport({ ratio: 1 });
  await page.screenshot({ path: screenshot('07b-verify-rejected-card') });
});

test('fingerprint previews: TIFF and BMP prints are drawn with their minutiae on enroll and verify', async ({
  page,
}) => {
  if (!available.fingerprintPreview) return;
  await signIn(page, server, OPERATOR);
  const drawn = page.getByRole('img', { name: /^Fingerprint with \d+ minutiae marked$/ });
  /** The picture under the minutiae: the server's PNG of the print (browsers cannot draw TIFF). */
  const pictureWidth = async (): Promise<number> => {
    const href = (await drawn.locator('image').getAttribute('href')) ?? '';
    expect(href).toMatch(/^data:image\/png;base64,/);
    const meta = await sharp(Buffer.from(href.slice(href.indexOf(',') + 1), 'base64')).metadata();
    return meta.width ?? 0;
  };
  for (const screen of ['Enroll', 'Verify']) {
    await page.getByRole('link', { name: screen }).click();
    for (const file of ['finger-a-3.tif', 'finger-a-3.bmp']) {
      await page.getByLabel('Fingerprint image', { exact: true }).setInputFiles(fixture(file));
      await expect(drawn).toBeVisible();
      await expect(drawn.locator('g.minutiae circle').first()).toBeVisible();
      expect(await pictureWidth()).toBeGreaterThan(100);
      await expect(page.getByTestId('fingerprint-quality')).toContainText('minutiae');
      if (file.endsWith('.tif')) await page.screenshot({ path: screenshot(`05c-${screen}-tiff-preview`) });
      await page.getByRole('button', { name: 'Clear', exact: true }).first().click();
      await expect(drawn).toBeHidden();
    }
  }
});

test('operator actions are audited under the console user, never an API key, without images', async () => {
  const response = await fetch(
    `${server.url}/api/console/audit?keyId=console:${OPERATOR.username}&limit=200`,
    {
      headers: { cookie: admin },
    },
  );
  expect(response.status).toBe(200);
  const { rows } = (await response.json()) as {
    rows: { route: string; authOutcome: string; scores: string | null; resultStatus: string | null }[];
  };
  const routes = new Set(rows.map((r) => r.route));
  expect(routes).toContain('/api/console/login');
  if (available.fingerprint) {
    expect(routes).toContain('/api/console/run/enroll');
    // One row per verification, as /v2/verify writes: the console runs the same pipeline in one request.
    const verifications = rows.filter((r) => r.route === '/api/console/run/verify');
    expect(verifications.length).toBeGreaterThanOrEqual(2);
    expect(verifications.map((r) => r.resultStatus).sort()).toContain('REJECTED');
  }
  expect([...routes].filter((route) => /verify-fingerprint|face-match|id-card/.test(route))).toEqual([]);
  expect(rows.every((r) => r.authOutcome === 'console')).toBe(true);
  expect(JSON.stringify(rows)).not.toMatch(/base64|data:image|\/9j\//);
});
