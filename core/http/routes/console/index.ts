import type { FastifyInstance } from 'fastify';
import type { Services } from '../../../services/container.js';
import { registerAuditRoutes } from './audit-routes.js';
import { registerAuthRoutes } from './auth-routes.js';
import { registerDocumentRoutes } from './document-routes.js';
import { engineAvailability } from './engine-capabilities.js';
import { consoleGuard, requireRole } from './guard.js';
import { registerKeyRoutes } from './key-routes.js';
import { registerRunRoutes } from './run-routes.js';
import { registerSettingsRoutes } from './settings-routes.js';
import { registerStaticAssets } from './static-assets.js';
import { registerUserRoutes } from './user-routes.js';

/** Options of the console routes. */
export interface ConsoleRouteOptions {
  /** Folder of the built renderer; defaults to the one the asset resolver finds (dist/renderer). */
  rendererDist?: string;
}

/**
 * The operator console: its API under /api/console (session cookie, role checks, no API keys, same-origin only)
 * and the React app at `/`.
 */
export async function registerConsoleRoutes(
  app: FastifyInstance,
  services: Services,
  options: ConsoleRouteOptions = {},
): Promise<void> {
  const { accounts, sessions } = services;
  await app.register(
    (scope, _options, done) => {
      scope.addHook('onRequest', (request, _reply, next) => {
        // Every console change (sign-in, keys, settings, operator actions) and every refused request is audited.
        request.idv.audited = request.method !== 'GET';
        request.idv.authOutcome = 'console';
        next();
      });
      scope.addHook(
        'onRequest',
        consoleGuard(sessions, () => app.idvBind.host),
      );
      scope.addHook('onRequest', (request, _reply, next) => {
        // Console requests are attributed to the signed-in user, not to an API key.
        request.idv.keyId = request.consoleUser ? `console:${request.consoleUser.username}` : null;
        next();
      });
      registerAuthRoutes(scope, { accounts, sessions, keys: services.keys, settings: services.settings });
      registerUserRoutes(scope, accounts, sessions);
      registerKeyRoutes(scope, services.keys);
      registerAuditRoutes(scope, services.audit, services.keys);
      registerSettingsRoutes(scope, services);
      registerDocumentRoutes(scope, services);
      registerRunRoutes(scope, services);
      scope.get('/engines', { preHandler: requireRole('operator', 'admin', 'auditor') }, (request) => {
        request.idv.audited = false;
        return engineAvailability(services);
      });
      done();
    },
    { prefix: '/api/console' },
  );
  await registerStaticAssets(app, options.rendererDist);
}
