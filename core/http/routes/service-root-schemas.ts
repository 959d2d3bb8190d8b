import { Type } from '@sinclair/typebox';

/** Schemas of the sub-service roots and health checks (they feed /openapi.json). */

const Store = Type.Object(
  {
    reachable: Type.Boolean(),
    sqlite: Type.Optional(Type.String({ description: 'SQLite version (the SQLite store).' })),
    sqlite_vec: Type.Optional(Type.String({ description: 'sqlite-vec version (the SQLite store).' })),
    postgres: Type.Optional(Type.String({ description: 'PostgreSQL server version (the shared store).' })),
    database: Type.Optional(Type.String({ description: 'The shared store URL, without its password.' })),
  },
  { additionalProperties: true, description: 'The store: reachable, and facts of its adapter.' },
);

const Health = Type.Object(
  {
    name: Type.String(),
    status: Type.String({ description: 'ok, error or not_implemented.' }),
    store: Store,
    engine: Type.Optional(Type.Object({}, { additionalProperties: true })),
    message: Type.Optional(Type.String()),
  },
  { additionalProperties: true },
);

/** Responses of GET /docs/<name>/api/health. */
export const HealthResponses = {
  200: { ...Health, description: 'The engine is loaded and the store answers: send traffic here.' },
  503: {
    ...Health,
    description:
      'The engine is not built, not loaded or failing, or the store does not answer: send no traffic here.',
  },
};

/** Responses of GET /docs/<name>/api/ (the service root). */
export const ServiceRootResponses = {
  200: Type.Object(
    {
      name: Type.String(),
      version: Type.String(),
      purpose: Type.String(),
      status: Type.String({ description: 'available or not_implemented.' }),
      endpoints: Type.Array(Type.Object({ method: Type.String(), path: Type.String() })),
      health: Type.String({ description: 'Path of the health check.' }),
    },
    { additionalProperties: true, description: 'What the sub-service does, its version and endpoints.' },
  ),
};
