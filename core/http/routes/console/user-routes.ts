import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { CoreError } from '../../../errors.js';
import type { ConsoleAccounts } from '../../../services/console/accounts.js';
import type { ConsoleSessions } from '../../../services/console/sessions.js';
import { requireRole, userOf } from './guard.js';

const Role = Type.Union([Type.Literal('operator'), Type.Literal('admin'), Type.Literal('auditor')]);
const NewUser = Type.Object(
  { username: Type.String({ maxLength: 64 }), password: Type.String({ maxLength: 256 }), role: Role },
  { additionalProperties: false },
);
const UserChange = Type.Object(
  {
    role: Type.Optional(Role),
    disabled: Type.Optional(Type.Boolean()),
    password: Type.Optional(Type.String({ maxLength: 256 })),
  },
  { additionalProperties: false },
);
const IdParams = Type.Object({ id: Type.String({ maxLength: 64 }) });

/** Account management by admins: list, create, change role / enabled / password. */
export function registerUserRoutes(
  app: FastifyInstance,
  accounts: ConsoleAccounts,
  sessions: ConsoleSessions,
): void {
  const admin = { preHandler: requireRole('admin') };

  app.get('/users', admin, async () => ({ users: await accounts.list() }));

  app.post<{ Body: Static<typeof NewUser> }>(
    '/users',
    { ...admin, schema: { body: NewUser } },
    async (request, reply) => {
      const user = await accounts.create(request.body.username, request.body.password, request.body.role);
      request.idv.event = 'console.user_created';
      return reply.code(201).send({ user });
    },
  );

  app.patch<{ Params: Static<typeof IdParams>; Body: Static<typeof UserChange> }>(
    '/users/:id',
    { ...admin, schema: { params: IdParams, body: UserChange } },
    async (request) => {
      const { role, disabled, password } = request.body;
      if (request.params.id === userOf(request).id && (disabled === true || (role && role !== 'admin'))) {
        throw new CoreError('CONFLICT', 'You cannot disable or demote your own account.');
      }
      const user = await accounts.update(request.params.id, {
        ...(role ? { role } : {}),
        ...(disabled === undefined ? {} : { disabled }),
        ...(password === undefined ? {} : { password }),
      });
      // Any change of role, state or password ends the account's open sessions.
      if (request.params.id !== userOf(request).id) await sessions.destroyAllFor(user.id);
      request.idv.event = 'console.user_changed';
      return { user };
    },
  );
}
