import { Value } from '@sinclair/typebox/value';
import { CoreError } from '../../errors.js';
import {
  isPlainObject,
  mergeConfig,
  orchestratorConfigProblem,
  OrchestratorConfigSchema,
  type OrchestratorConfig,
} from '../../settings/orchestrator-config.js';

export {
  DEFAULT_CONFIG,
  mergeConfig,
  OrchestratorConfigSchema,
  STAGES,
  StageConfigSchema,
  type ConfigPatch,
  type OrchestratorConfig,
  type StageName,
} from '../../settings/orchestrator-config.js';

/** Validate a whole configuration; throws CoreError BODY_INVALID naming the first bad field (dotted path). */
export function validateConfig(candidate: unknown): OrchestratorConfig {
  const first = Value.Errors(OrchestratorConfigSchema, candidate).First();
  if (first) {
    const field = first.path.replace(/^\//, '').replaceAll('/', '.') || 'config';
    throw new CoreError('BODY_INVALID', `Invalid orchestrator setting ${field}: ${first.message}.`, {
      field,
    });
  }
  const config = candidate as OrchestratorConfig;
  const problem = orchestratorConfigProblem(config);
  if (problem) throw new CoreError('BODY_INVALID', problem.message, { field: problem.field });
  return structuredClone(config);
}

/** Apply a partial update to a configuration and validate the result. */
export function patchConfig(current: OrchestratorConfig, patch: unknown): OrchestratorConfig {
  if (!isPlainObject(patch))
    throw new CoreError('BODY_INVALID', 'The configuration must be a JSON object.', { field: 'config' });
  return validateConfig(mergeConfig(current, patch));
}
