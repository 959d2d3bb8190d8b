import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { CoreError } from '../../../errors.js';
import type { DocumentEngine } from '../../../contracts/document-engine.js';
import type { Services } from '../../../services/container.js';
import { readMultipart } from '../../intake.js';
import { requireRole } from './guard.js';

const NameParams = Type.Object({ name: Type.String({ maxLength: 80 }) });
const IdParams = Type.Object({ id: Type.String({ maxLength: 80 }) });

/** Document profiles and reference marks (admins): list, save, delete; upload marks and show their previews. */
export function registerDocumentRoutes(app: FastifyInstance, services: Services): void {
  const admin = { preHandler: requireRole('admin') };
  const engine = (): DocumentEngine => {
    if (!services.document)
      throw new CoreError('NOT_IMPLEMENTED', 'The ID-document engine is not available yet on this server.');
    return services.document;
  };

  app.put<{ Params: Static<typeof NameParams>; Body: Record<string, unknown> }>(
    '/settings/documents/profiles/:name',
    { ...admin, schema: { params: NameParams, body: Type.Object({}, { additionalProperties: true }) } },
    async (request) => {
      // The engine validates the profile and names the first bad field (400).
      const saved = await engine().saveProfile({ ...request.body, name: request.params.name });
      request.idv.event = 'settings.document_profile_saved';
      return saved;
    },
  );

  app.delete<{ Params: Static<typeof NameParams> }>(
    '/settings/documents/profiles/:name',
    { ...admin, schema: { params: NameParams } },
    async (request, reply) => {
      await engine().deleteProfile(request.params.name);
      request.idv.event = 'settings.document_profile_deleted';
      return reply.code(204).send();
    },
  );

  app.post('/settings/documents/marks', admin, async (request, reply) => {
    const form = await readMultipart(request, services.limits);
    const image = form.files.image;
    if (!image) throw new CoreError('FIELD_MISSING', 'The image file is required.', { field: 'image' });
    const mark = await engine().addReferenceMark(form.fields.name ?? '', image);
    request.idv.event = 'settings.reference_mark_added';
    return reply.code(201).send(mark);
  });

  app.get<{ Params: Static<typeof IdParams> }>(
    '/settings/documents/marks/:id/preview',
    { ...admin, schema: { params: IdParams } },
    async (request, reply) =>
      reply
        .type('image/png')
        .header('cache-control', 'no-store')
        .send(await engine().referenceMarkPreview(request.params.id)),
  );

  app.delete<{ Params: Static<typeof IdParams> }>(
    '/settings/documents/marks/:id',
    { ...admin, schema: { params: IdParams } },
    async (request, reply) => {
      await engine().deleteReferenceMark(request.params.id);
      request.idv.event = 'settings.reference_mark_deleted';
      return reply.code(204).send();
    },
  );
}
