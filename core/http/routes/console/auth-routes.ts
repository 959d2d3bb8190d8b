import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { CoreError } from '../../../errors.js';
import type { ConsoleAccounts, ConsoleUser } from '../../../services/console/accounts.js';
import { SESSION_COOKIE, type ConsoleSessions } from '../../../services/console/sessions.js';
import type { ApiKeyService } from '../../../services/api-keys.js';
import type { Services } from '../../../services/container.js';
import type { MeResponse, SetupStateResponse } from './api-types.js';
import { clearedCookie, readCookie, sessionCookie } from './cookies.js';
import { checkCountry, readDefaultCountry, saveDefaultCountry } from './default-country.js';
import { requireRole, userOf } from './guard.js';

const Credentials = Type.Object(
  {
    username: Type.String({ minLength: 1, maxLength: 64 }),
    password: Type.String({ minLength: 1, maxLength: 256 }),
  },
  { additionalProperties: false },
);
type CredentialsBody = Static<typeof Credentials>;
const SetupBody = Type.Object(
  {
    username: Type.String({ minLength: 1, maxLength: 64 }),
    password: Type.String({ minLength: 1, maxLength: 256 }),
    /** Country preselected for mobile numbers (ISO 3166-1 alpha-2); asked on the first-run screen. */
    country: Type.Optional(Type.String({ minLength: 2, maxLength: 2 })),
  },
  { additionalProperties: false },
);

const FAILURE_WINDOW_MS = 5 * 60 * 1000;
const MAX_FAILURES = 5;

/** What the auth routes need. */
export interface AuthRouteDeps {
  accounts: ConsoleAccounts;
  sessions: ConsoleSessions;
  keys: ApiKeyService;
  settings: Services['settings'];
}

/** setup-state, setup (first admin, once), login, logout, me. */
export function registerAuthRoutes(app: FastifyInstance, deps: AuthRouteDeps): void {
  const { accounts, sessions, keys, settings } = deps;
  const failures = new Map<string, { count: number; since: number }>();

  const startSession = async (
    request: FastifyRequest,
    reply: FastifyReply,
    user: ConsoleUser,
  ): Promise<void> => {
    const { token, expiresAt } = await sessions.create(user.id);
    reply.header('set-cookie', sessionCookie(SESSION_COOKIE, token, expiresAt, request.protocol === 'https'));
    request.idv.keyId = `console:${user.username}`;
    request.idv.authOutcome = 'console';
  };

  app.get('/setup-state', async (): Promise<SetupStateResponse> => ({ hasAdmin: await accounts.hasAdmin() }));

  app.post<{ Body: Static<typeof SetupBody> }>(
    '/setup',
    { schema: { body: SetupBody } },
    async (request, reply) => {
      // Checked before the account exists: a refused country must not leave the first run half done.
      const country =
        request.body.country === undefined ? undefined : checkCountry(request.body.country, 'country');
      const user = await accounts.setupAdmin(request.body.username, request.body.password);
      if (country !== undefined) await saveDefaultCountry(settings, country);
      request.idv.event = 'console.setup';
      await startSession(request, reply, user);
      return reply.code(201).send({ user });
    },
  );

  app.post<{ Body: CredentialsBody }>('/login', { schema: { body: Credentials } }, async (request, reply) => {
    const name = request.body.username.toLowerCase();
    const record = failures.get(name);
    if (record && record.count >= MAX_FAILURES && Date.now() - record.since < FAILURE_WINDOW_MS) {
      throw new CoreError('RATE_LIMITED', 'Too many failed sign-ins for this account; wait five minutes.', {
        retryAfterSeconds: Math.ceil((record.since + FAILURE_WINDOW_MS - Date.now()) / 1000),
      });
    }
    const user = await accounts.authenticate(request.body.username, request.body.password);
    if (!user) {
      const fresh =
        record && Date.now() - record.since < FAILURE_WINDOW_MS ? record : { count: 0, since: Date.now() };
      failures.set(name, { count: fresh.count + 1, since: fresh.since });
      request.idv.event = 'console.login_failed';
      throw new CoreError('UNAUTHORIZED', 'Wrong username or password.');
    }
    failures.delete(name);
    request.idv.event = 'console.login';
    await startSession(request, reply, user);
    return { user };
  });

  app.post('/logout', async (request, reply) => {
    const token = readCookie(request.headers.cookie, SESSION_COOKIE);
    if (token) await sessions.destroy(token);
    request.idv.event = 'console.logout';
    reply.header('set-cookie', clearedCookie(SESSION_COOKIE));
    return reply.code(204).send();
  });

  app.get('/me', { preHandler: requireRole('operator', 'admin', 'auditor') }, (request): MeResponse => ({
    user: userOf(request),
    authMode: keys.mode(),
    defaultCountry: readDefaultCountry(settings),
  }));
}
