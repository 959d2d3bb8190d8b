import { expect, test, type Page } from '@playwright/test';
import { ADMIN, AUDITOR, OPERATOR, signIn } from './support/console.js';
import { screenshot } from './support/paths.js';
import { startTestServer, type TestServer } from './support/server.js';

let server: TestServer;

test.beforeAll(async () => {
  server = await startTestServer();
});

test.afterAll(async () => {
  await server.stop();
});

test.describe.configure({ mode: 'serial' });

/** Paths of the console API requests the page makes from now on. */
function consoleRequests(page: Page): string[] {
  const paths: string[] = [];
  page.on('request', (request) => {
    const path = new URL(request.url()).pathname;
    if (path.startsWith('/api/console/')) paths.push(path);
  });
  return paths;
}

test("first run: create the administrator with the customers' country, then manage console users", async ({
  page,
}) => {
  const requests = consoleRequests(page);
  await page.goto(`${server.url}/`);
  await expect(page.getByRole('heading', { name: 'Create the administrator' })).toBeVisible();
  await page.screenshot({ path: screenshot('01-first-run-setup') });
  await page.getByLabel('Username').fill(ADMIN.username);
  await page.getByLabel('Password', { exact: true }).fill(ADMIN.password);
  await page.getByLabel('Confirm password').fill(ADMIN.password);
  await page.getByLabel('Country of your customers').selectOption('KE');
  await page.getByRole('button', { name: 'Create administrator' }).click();
  await expect(page.getByRole('navigation', { name: 'Screens' })).toBeVisible();
  await expect(page.getByRole('status', { name: 'Auth mode' })).toContainText('Observe mode');
  await expect(page.getByRole('heading', { name: 'Enroll a fingerprint' })).toBeVisible();
  // The screen asked who is signed in once while the admin typed: no polling loop.
  expect(requests.filter((path) => path === '/api/console/me').length).toBeLessThanOrEqual(2);
  expect(requests.length).toBeLessThanOrEqual(8);
  await page.getByRole('link', { name: 'Verify' }).click();
  await expect(page.getByLabel('Country')).toHaveValue('KE');

  await page.getByRole('link', { name: 'Users' }).click();
  const form = page.getByRole('form', { name: 'New console user' });
  for (const [user, role] of [
    [OPERATOR, 'operator'],
    [AUDITOR, 'auditor'],
  ] as const) {
    await form.getByLabel('New username').fill(user.username);
    await form.getByLabel('Initial password').fill(user.password);
    await form.getByLabel('Role').selectOption(role);
    await form.getByRole('button', { name: 'Create account' }).click();
    await expect(page.getByText(`Account ${user.username} created.`)).toBeVisible();
  }
  const table = page.getByRole('table', { name: 'Console users' });
  await expect(table.getByRole('row')).toHaveCount(4);
  // An admin sets another account's password (the roles test below signs in with it).
  await table.getByRole('button', { name: `Set password of ${AUDITOR.username}` }).click();
  const reset = page.getByRole('dialog', { name: `New password for ${AUDITOR.username}` });
  await reset.getByLabel('New password').fill(AUDITOR.password);
  await reset.getByRole('button', { name: 'Save password' }).click();
  await expect(page.getByText(`Password of ${AUDITOR.username} changed.`)).toBeVisible();
  await page.screenshot({ path: screenshot('02-users') });
});

test('API keys: issue with a description, copy once, revoke, switch to enforce', async ({
  page,
  context,
}) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
  await signIn(page, server, ADMIN);
  await page.getByRole('link', { name: 'API keys' }).click();
  const requests = consoleRequests(page);
  await page.getByRole('button', { name: 'Issue key' }).click();
  await expect(page.getByRole('form', { name: 'Issue a key' }).getByRole('alert')).toHaveText(
    /Describe what the key is for/,
  );
  await expect(page.getByLabel('Use-case description')).toHaveAttribute('aria-invalid', 'true');
  expect(requests).not.toContain('/api/console/keys');
  await page.getByLabel('Use-case description').fill('Branch onboarding backend, Leeds');
  await page.getByRole('button', { name: 'Issue key' }).click();
  const secret = page.getByTestId('new-key');
  await expect(secret).toHaveText(/^idv_[a-z0-9]{10}_/);
  const key = (await secret.textContent()) ?? '';
  await page.getByRole('button', { name: 'Copy the new API key' }).click();
  await expect(page.getByRole('button', { name: 'Copy the new API key' })).toHaveText('Copied');
  expect(
    await page.evaluate(() =>
      (
        globalThis as unknown as { navigator: { clipboard: { readText(): Promise<string> } } }
      ).navigator.clipboard.readText(),
    ),
  ).toBe(key);
  const keys = page.getByRole('table', { name: 'API keys' });
  const prefix = key.split('_')[1] ?? '';
  await expect(keys.getByRole('row', { name: /Branch onboarding backend/ })).toContainText(`idv_${prefix}_`);
  await expect(keys).not.toContainText(key);
  await page.screenshot({ path: screenshot('03-api-keys-issued') });

  await page.getByRole('button', { name: 'Switch to enforce' }).click();
  const confirm = page.getByRole('dialog', { name: 'Switch to enforce mode?' });
  await expect(confirm).toContainText('401');
  await confirm.getByRole('button', { name: 'Enforce API keys' }).click();
  await expect(page.getByTestId('auth-mode')).toHaveText('enforce');
  await expect(page.getByRole('status', { name: 'Auth mode' })).toHaveCount(0);
  await page.screenshot({ path: screenshot('04-api-keys-enforce') });

  // Enforced: the public API refuses a request without a key but not with the issued key; the console still works.
  expect((await fetch(`${server.url}/v2/verify`, { method: 'POST' })).status).toBe(401);
  expect(
    (await fetch(`${server.url}/v2/verify`, { method: 'POST', headers: { 'x-api-key': key } })).status,
  ).not.toBe(401);

  await page.getByRole('button', { name: `Revoke key ${prefix}` }).click();
  const dialog = page.getByRole('dialog', { name: 'Revoke this key?' });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: 'Revoke key' }).click();
  await expect(keys.getByRole('row', { name: /Branch onboarding backend/ })).toContainText('revoked');
  expect(
    (await fetch(`${server.url}/v2/verify`, { method: 'POST', headers: { 'x-api-key': key } })).status,
  ).toBe(401);

  await page.getByRole('button', { name: 'Switch back to observe' }).click();
  await page
    .getByRole('dialog', { name: 'Switch back to observe mode?' })
    .getByRole('button', { name: 'Switch to observe' })
    .click();
  await expect(page.getByRole('status', { name: 'Auth mode' })).toBeVisible();
});

test('sign-in: the screen waits without polling, a wrong password is told, then the console opens', async ({
  page,
}) => {
  const requests = consoleRequests(page);
  await page.goto(`${server.url}/`);
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
  await page.getByLabel('Username').fill(ADMIN.username);
  await page.getByLabel('Password').fill('not the password');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('alert')).toHaveText('Wrong username or password.');
  // Opening the screen: who is signed in, the engines, whether an admin exists; then the one failed sign-in.
  expect(requests.length).toBeLessThanOrEqual(4);
  await page.getByLabel('Password').fill(ADMIN.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('navigation', { name: 'Screens' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Enroll a fingerprint' })).toBeVisible();
  expect(requests.filter((path) => path === '/api/console/login')).toHaveLength(2);
  expect(requests.length).toBeLessThanOrEqual(8);
});

test('roles: an auditor sees only the audit screen; an operator only enroll and verify', async ({ page }) => {
  await signIn(page, server, AUDITOR);
  const nav = page.getByRole('navigation', { name: 'Screens' });
  await expect(nav.getByRole('link')).toHaveText(['Results & audit']);
  await page.getByRole('button', { name: 'Sign out' }).click();
  await signIn(page, server, OPERATOR);
  await expect(nav.getByRole('link')).toHaveText(['Enroll', 'Verify']);
  // The first run's country is every operator's default for mobile numbers.
  await page.getByRole('link', { name: 'Verify' }).click();
  await expect(page.getByLabel('Country')).toHaveValue('KE');
  // A direct visit to an admin screen falls back to the operator's first screen.
  await page.goto(`${server.url}/keys`);
  await expect(page.getByRole('heading', { name: 'Enroll a fingerprint' })).toBeVisible();
});
