import { expect, type Page } from '@playwright/test';
import type { EngineAvailability } from '../../core/http/routes/console/api-types.js';
import type { TestServer } from './server.js';

export const ADMIN = { username: 'admin', password: 'admin password 123' };
export const OPERATOR = { username: 'olivia', password: 'operator password 1' };
export const AUDITOR = { username: 'aldo', password: 'auditor password 1' };

/** A session cookie for direct API calls from the test process. */
export async function apiLogin(
  server: TestServer,
  user: { username: string; password: string },
): Promise<string> {
  const response = await fetch(`${server.url}/api/console/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(user),
  });
  expect(response.status).toBe(200);
  return (response.headers.get('set-cookie') ?? '').split(';')[0]!;
}

/** Create the first admin through the API and return its session cookie. */
export async function setupAdmin(server: TestServer): Promise<string> {
  const response = await fetch(`${server.url}/api/console/setup`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(ADMIN),
  });
  expect(response.status).toBe(201);
  return (response.headers.get('set-cookie') ?? '').split(';')[0]!;
}

/** Create a console account as the admin. */
export async function createUser(
  server: TestServer,
  adminCookie: string,
  user: { username: string; password: string },
  role: string,
): Promise<void> {
  const response = await fetch(`${server.url}/api/console/users`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie: adminCookie },
    body: JSON.stringify({ ...user, role }),
  });
  expect(response.status).toBe(201);
}

/** Which engines the server under test has built (the tests branch on this, never skip). */
export async function engines(server: TestServer, cookie: string): Promise<EngineAvailability> {
  const response = await fetch(`${server.url}/api/console/engines`, { headers: { cookie } });
  expect(response.status).toBe(200);
  return (await response.json()) as EngineAvailability;
}

/** Sign in through the console's form and wait for the shell. */
export async function signIn(
  page: Page,
  server: TestServer,
  user: { username: string; password: string },
): Promise<void> {
  await page.goto(`${server.url}/`);
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
  await page.getByLabel('Username').fill(user.username);
  await page.getByLabel('Password').fill(user.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('navigation', { name: 'Screens' })).toBeVisible();
}

/** Type a GB mobile number into the mobile field and wait for it to validate. */
export async function fillMobile(page: Page, national: string): Promise<void> {
  await page.getByLabel('Country').selectOption('GB');
  await page.getByLabel('Number').fill(national);
  await expect(page.getByText(/Valid mobile number/)).toBeVisible();
}
