import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { ApiKeyService } from '../../../services/api-keys.js';
import type { CreatedKeyResponse } from './api-types.js';
import { requireRole } from './guard.js';

const NewKey = Type.Object({ description: Type.String({ maxLength: 500 }) }, { additionalProperties: false });
const IdParams = Type.Object({ id: Type.String({ maxLength: 64 }) });
const ModeBody = Type.Object(
  { mode: Type.Union([Type.Literal('observe'), Type.Literal('enforce')]) },
  { additionalProperties: false },
);

/** API-key issuance, listing and revocation, and the auth mode; admins only. */
export function registerKeyRoutes(app: FastifyInstance, keys: ApiKeyService): void {
  const admin = { preHandler: requireRole('admin') };

  app.get('/keys', admin, async () => ({ keys: await keys.list() }));

  app.post<{ Body: Static<typeof NewKey> }>(
    '/keys',
    { ...admin, schema: { body: NewKey } },
    async (request, reply) => {
      const created: CreatedKeyResponse = await keys.create(request.body.description);
      request.idv.event = 'api_key.created';
      // The secret is in this one response only: never cache it.
      reply.header('cache-control', 'no-store');
      return reply.code(201).send(created);
    },
  );

  app.post<{ Params: Static<typeof IdParams> }>(
    '/keys/:id/revoke',
    { ...admin, schema: { params: IdParams } },
    async (request) => {
      request.idv.event = 'api_key.revoked';
      return keys.revoke(request.params.id);
    },
  );

  app.get('/auth-mode', admin, () => ({ mode: keys.mode() }));

  app.put<{ Body: Static<typeof ModeBody> }>(
    '/auth-mode',
    { ...admin, schema: { body: ModeBody } },
    async (request) => {
      await keys.setMode(request.body.mode);
      request.idv.event = `auth_mode.${request.body.mode}`;
      return { mode: keys.mode() };
    },
  );
}
