import { isIP } from 'node:net';
import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { CoreError } from '../../../errors.js';
import type { Services } from '../../../services/container.js';
import type {
  ConsolePreferences,
  ConsoleSettingsResponse,
  FingerprintPolicySetting,
  ServerBindSetting,
  ThresholdSetting,
} from './api-types.js';
import { checkCountry, readDefaultCountry, saveDefaultCountry } from './default-country.js';
import { calibrationFor } from './engine-capabilities.js';
import { requireRole } from './guard.js';
import { readFingerprintSettings } from '../../../fingerprint/settings.js';
import { DEFAULT_HOST } from '../../../settings/defaults.js';
import {
  FINGERPRINT_POLICY_SETTINGS,
  THRESHOLD_SETTINGS,
  type SettingValues,
} from '../../../settings/schema.js';
import { thresholdInForce } from './threshold-in-force.js';

const BindBody = Type.Object(
  { host: Type.String({ maxLength: 64 }), port: Type.Integer({ minimum: 1, maximum: 65535 }) },
  { additionalProperties: false },
);
const ThresholdBody = Type.Object({ oneInN: Type.Integer({ minimum: 2 }) }, { additionalProperties: false });
const FingerprintBody = Type.Object(
  {
    turn: Type.Optional(Type.Union([Type.Literal('upright'), Type.Literal('any')])),
    dedup: Type.Optional(Type.Union([Type.Literal('flag'), Type.Literal('reject')])),
    qualityFloor: Type.Optional(Type.Integer({ minimum: 0, maximum: 100 })),
    minMinutiae: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
  },
  { additionalProperties: false, minProperties: 1 },
);
const ConsoleBody = Type.Object(
  { defaultCountry: Type.String({ minLength: 2, maxLength: 2 }) },
  { additionalProperties: false },
);
const EngineParams = Type.Object({ engine: Type.Union([Type.Literal('face'), Type.Literal('fingerprint')]) });

function boundAddress(app: FastifyInstance): { host: string; port: number } {
  const address = app.server.address();
  if (address && typeof address === 'object') return { host: address.address, port: address.port };
  return { host: DEFAULT_HOST, port: 0 };
}

/**
 * Admin settings: matcher thresholds as "1 in N", the fingerprint enrollment policy and reader, server bind address
 * (applied on restart).
 */
export function registerSettingsRoutes(app: FastifyInstance, services: Services): void {
  const admin = { preHandler: requireRole('admin') };

  const thresholdOf = (engine: 'face' | 'fingerprint'): ThresholdSetting => {
    const calibration = calibrationFor(services, engine);
    const { oneInN, isDefault } = thresholdInForce(services.settings, engine);
    return {
      engine,
      available: services[engine] !== undefined,
      oneInN,
      isDefault,
      // From the calibration in force: the fingerprint's follows the reader setting (turn), the stored one may not.
      threshold: calibration?.points.find((p) => p.oneInN === oneInN)?.threshold ?? null,
      calibration: calibration?.points ?? [],
      calibrationSource: calibration?.source ?? '',
    };
  };

  const fingerprintOf = (): FingerprintPolicySetting => {
    const { turn, dedup, qualityFloor, minMinutiae } = readFingerprintSettings(services.settings);
    return { available: services.fingerprint !== undefined, turn, dedup, qualityFloor, minMinutiae };
  };

  const serverOf = (): ServerBindSetting => {
    const current = boundAddress(app);
    const stored = services.settings.get('server.bind') ?? current;
    return {
      ...stored,
      current,
      pendingRestart: stored.host !== current.host || stored.port !== current.port,
    };
  };

  app.get('/settings', admin, async (): Promise<ConsoleSettingsResponse> => {
    const { document, orchestrator } = services;
    return {
      thresholds: [thresholdOf('face'), thresholdOf('fingerprint')],
      fingerprint: fingerprintOf(),
      server: serverOf(),
      orchestrator: {
        available: orchestrator !== undefined,
        config: orchestrator?.getConfig() ?? null,
      },
      console: { defaultCountry: readDefaultCountry(services.settings) },
      documents: {
        available: document !== undefined,
        profiles: document ? await document.listProfiles() : [],
        referenceMarks: document ? await document.listReferenceMarks() : [],
      },
    };
  });

  app.put<{ Params: Static<typeof EngineParams>; Body: Static<typeof ThresholdBody> }>(
    '/settings/threshold/:engine',
    { ...admin, schema: { params: EngineParams, body: ThresholdBody } },
    async (request) => {
      const { engine } = request.params;
      const point = calibrationFor(services, engine)?.points.find((p) => p.oneInN === request.body.oneInN);
      if (!point) {
        throw new CoreError(
          'FIELD_INVALID',
          `1 in ${request.body.oneInN} is not a calibrated operating point of the ${engine} matcher.`,
          {
            field: 'oneInN',
          },
        );
      }
      await services.settings.set(THRESHOLD_SETTINGS[engine], point.oneInN);
      request.idv.event = `settings.${engine}_threshold`;
      return thresholdOf(engine);
    },
  );

  // Only the fields sent change. The answer carries the fingerprint threshold too: its calibration follows the reader.
  app.put<{ Body: Static<typeof FingerprintBody> }>(
    '/settings/fingerprint',
    { ...admin, schema: { body: FingerprintBody } },
    async (request): Promise<{ fingerprint: FingerprintPolicySetting; threshold: ThresholdSetting }> => {
      if (!services.fingerprint)
        throw new CoreError('NOT_IMPLEMENTED', 'The fingerprint engine is not available on this server.');
      const { turn, dedup, qualityFloor, minMinutiae } = request.body;
      const keys = FINGERPRINT_POLICY_SETTINGS;
      const change: SettingValues = {
        ...(turn === undefined ? {} : { [keys.turn]: turn }),
        ...(dedup === undefined ? {} : { [keys.dedup]: dedup }),
        ...(qualityFloor === undefined ? {} : { [keys.qualityFloor]: qualityFloor }),
        ...(minMinutiae === undefined ? {} : { [keys.minMinutiae]: minMinutiae }),
      };
      await services.settings.setMany(change);
      request.idv.event = 'settings.fingerprint';
      return { fingerprint: fingerprintOf(), threshold: thresholdOf('fingerprint') };
    },
  );

  app.put<{ Body: Record<string, unknown> }>(
    '/settings/orchestrator',
    { ...admin, schema: { body: Type.Object({}, { additionalProperties: true }) } },
    async (request) => {
      const orchestrator = services.orchestrator;
      if (!orchestrator)
        throw new CoreError('NOT_IMPLEMENTED', 'The orchestrator is not available yet on this server.');
      // The orchestrator validates the merged configuration and names the first bad field (400).
      const config = await orchestrator.setConfig(request.body);
      request.idv.event = 'settings.orchestrator';
      return { available: true, config };
    },
  );

  app.put<{ Body: Static<typeof ConsoleBody> }>(
    '/settings/console',
    { ...admin, schema: { body: ConsoleBody } },
    async (request): Promise<ConsolePreferences> => {
      await saveDefaultCountry(
        services.settings,
        checkCountry(request.body.defaultCountry, 'defaultCountry'),
      );
      request.idv.event = 'settings.console';
      return { defaultCountry: readDefaultCountry(services.settings) };
    },
  );

  app.put<{ Body: Static<typeof BindBody> }>(
    '/settings/server',
    { ...admin, schema: { body: BindBody } },
    async (request) => {
      const host = request.body.host.trim();
      if (host !== 'localhost' && isIP(host) === 0) {
        throw new CoreError(
          'FIELD_INVALID',
          'The bind address must be an IP address (e.g. 127.0.0.1 or 0.0.0.0) or localhost.',
          {
            field: 'host',
          },
        );
      }
      await services.settings.set('server.bind', { host, port: request.body.port });
      request.idv.event = 'settings.server_bind';
      return serverOf();
    },
  );
}
