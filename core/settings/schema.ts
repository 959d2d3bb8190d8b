/**
 * Every operator setting in one place: its key, type and bounds (TypeBox), default and meaning. Settings are read and
 * written only through core/settings/settings.ts, which checks them against this schema.
 */
import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { isSupportedCountry } from 'libphonenumber-js/max';
import {
  DEFAULT_CONFIG,
  mergeConfig,
  orchestratorConfigProblem,
  OrchestratorConfigSchema,
} from './orchestrator-config.js';

/** One setting: its type and bounds, default and meaning. */
export interface SettingDefinition<S extends TSchema = TSchema> {
  schema: S;
  default: Static<S>;
  doc: string;
  /** Shapes a stored value before it is checked (e.g. completes an older partial value with the defaults). */
  prepare?(stored: unknown): unknown;
  // Method syntax: a definition of a narrower value still fits the list of every definition.
  /** A rule across fields the schema cannot state: the first problem, or undefined. */
  check?(value: Static<S>): { field: string; message: string } | undefined;
}

function setting<S extends TSchema>(
  schema: S,
  defaultValue: Static<S>,
  doc: string,
  more: Pick<SettingDefinition<S>, 'prepare' | 'check'> = {},
): SettingDefinition<S> {
  return { schema, default: defaultValue, doc, ...more };
}

const OneInN = Type.Number({ minimum: 1, description: 'N of "1 false match in N"' });

export const SETTINGS = {
  'auth.mode': setting(
    Type.Union([Type.Literal('observe'), Type.Literal('enforce')]),
    'observe',
    'API-key enforcement (SPEC 5): observe logs a missing or invalid key and goes on; enforce answers 401.',
  ),
  'limits.rateLimitPerMinute': setting(
    Type.Integer({ minimum: 1, maximum: 1_000_000_000 }),
    600,
    'Requests a minute per API key (per client address for keyless requests in observe mode); 429 beyond.',
  ),
  'server.bind': setting(
    Type.Union([
      Type.Null(),
      Type.Object(
        {
          host: Type.String({ minLength: 1, maxLength: 64 }),
          port: Type.Integer({ minimum: 0, maximum: 65535 }),
        },
        { additionalProperties: false },
      ),
    ]),
    null,
    'Bind address chosen in the console, applied at the next start (flags and environment come first); null: the defaults.',
  ),
  'face.thresholdOneInN': setting(
    OneInN,
    1_000,
    'Face match threshold as "1 false match in N" (the similarity at that rate in the committed calibration).',
  ),
  'fingerprint.thresholdOneInN': setting(
    OneInN,
    10_000,
    'Fingerprint 1:1 threshold as "1 false match in N" (the score at that rate in the calibration of the reader setting).',
  ),
  'fingerprint.dedupOneInN': setting(
    OneInN,
    10_000,
    'Operating point of duplicate detection at enrollment, never looser than the 1:1 threshold. It runs against the whole gallery, so false flags grow with its size: raise it for large galleries in reject mode.',
  ),
  'fingerprint.dedup': setting(
    Type.Union([Type.Literal('flag'), Type.Literal('reject')]),
    'flag',
    'A finger enrolled under another number: flag it in the response, or refuse the enrollment (409).',
  ),
  'fingerprint.qualityFloor': setting(
    Type.Number({ minimum: 0, maximum: 100 }),
    20,
    // Over the 320 FVC 2002/2004 impressions the extractor's quality has its 1st percentile at 21.
    'Enrollment refuses prints below this quality (0-100) with 422.',
  ),
  'fingerprint.minMinutiae': setting(
    Type.Number({ exclusiveMinimum: 0 }),
    10,
    'Enrollment refuses prints with fewer minutiae with 422.',
  ),
  'fingerprint.turn': setting(
    Type.Union([Type.Literal('upright'), Type.Literal('any')]),
    'upright',
    'upright: the reader is fixed in place (alignments turned past 60 degrees score less, past 120 not at all); any: it may face any way. Each has its own calibration.',
  ),
  'fingerprint.searchCandidates': setting(
    Type.Number({ exclusiveMinimum: 0 }),
    500,
    '1:N search: vector-index candidates ranked by their minutia cylinders.',
  ),
  'fingerprint.searchHashCandidates': setting(
    Type.Number({ minimum: 0 }),
    1_000,
    '1:N search: minutia hash-index candidates added for the cylinder ranking (0 turns that stage off).',
  ),
  'fingerprint.searchStarCandidates': setting(
    Type.Number({ minimum: 0 }),
    300,
    '1:N search: star-edge index candidates added for the cylinder ranking (0 turns that stage off).',
  ),
  'fingerprint.searchShortlist': setting(
    Type.Number({ exclusiveMinimum: 0 }),
    80,
    '1:N search: best cylinder-ranked candidates re-scored by the 1:1 matcher.',
  ),
  'console.defaultCountry': setting(
    Type.Union([Type.Null(), Type.String({ pattern: '^[A-Z]{2}$' })]),
    null,
    'Country preselected for mobile numbers in the console (ISO 3166-1 alpha-2, e.g. KE); null until an admin chooses one.',
    {
      check: (value) =>
        value === null || isSupportedCountry(value)
          ? undefined
          : { field: 'console.defaultCountry', message: 'not a country with a calling code' },
    },
  ),
  'orchestrator.config': setting(
    OrchestratorConfigSchema,
    DEFAULT_CONFIG,
    'Orchestrator weights, decision band, stage timeouts and retries, gating, outbox retention and broker URL.',
    { prepare: (stored) => mergeConfig(DEFAULT_CONFIG, stored), check: orchestratorConfigProblem },
  ),
} satisfies Record<string, SettingDefinition>;

/** A setting's key. */
export type SettingKey = keyof typeof SETTINGS;

/** The type of a setting's value. */
export type SettingValue<K extends SettingKey> = Static<(typeof SETTINGS)[K]['schema']>;

/** Several settings by key. */
export type SettingValues = { [K in SettingKey]?: SettingValue<K> };

/** The threshold setting of each matcher ("1 false match in N"). */
export const THRESHOLD_SETTINGS = {
  face: 'face.thresholdOneInN',
  fingerprint: 'fingerprint.thresholdOneInN',
} as const satisfies Record<string, SettingKey>;

/** The fingerprint enrollment and reader policy the console edits, by the name of its field. */
export const FINGERPRINT_POLICY_SETTINGS = {
  turn: 'fingerprint.turn',
  dedup: 'fingerprint.dedup',
  qualityFloor: 'fingerprint.qualityFloor',
  minMinutiae: 'fingerprint.minMinutiae',
} as const satisfies Record<string, SettingKey>;

/** True for a key of the schema. */
export function isSettingKey(key: string): key is SettingKey {
  return Object.hasOwn(SETTINGS, key);
}
