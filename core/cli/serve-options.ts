import type { ServerTimeouts } from '../http/app.js';
import { given, type ParsedArgs } from './args.js';

/** The load, memory and timeout flags of `npm run serve` (each also an environment variable). */
export interface ServeLimits {
  maxWaitMs?: number;
  decodeBudgetBytes?: number;
  timeouts: Partial<ServerTimeouts>;
}

/** Flag, environment variable, and whether the value is milliseconds or mebibytes. */
const FLAGS = {
  maxWaitMs: ['max-wait-ms', 'IDV_MAX_WAIT_MS'],
  decodeBudgetMb: ['decode-budget-mb', 'IDV_DECODE_BUDGET_MB'],
  headersMs: ['headers-timeout-ms', 'IDV_HEADERS_TIMEOUT_MS'],
  requestMs: ['request-timeout-ms', 'IDV_REQUEST_TIMEOUT_MS'],
  keepAliveMs: ['keep-alive-timeout-ms', 'IDV_KEEP_ALIVE_TIMEOUT_MS'],
} as const;

/** A positive whole number given by flag or environment, or undefined; anything else stops the start. */
function positive(args: ParsedArgs, [flag, env]: readonly [string, string]): number | undefined {
  const raw = given(args, flag, env);
  if (raw === undefined) return undefined;
  const value = Number(raw);
  if (!Number.isInteger(value) || value <= 0)
    throw new Error(`--${flag} (${env}) must be a positive whole number.`);
  return value;
}

/** Read the load, memory and timeout flags; throws a message naming the flag when one is invalid. */
export function serveLimits(args: ParsedArgs): ServeLimits {
  const maxWaitMs = positive(args, FLAGS.maxWaitMs);
  const budgetMb = positive(args, FLAGS.decodeBudgetMb);
  const timeouts: Partial<ServerTimeouts> = {};
  const headersMs = positive(args, FLAGS.headersMs);
  const requestMs = positive(args, FLAGS.requestMs);
  const keepAliveMs = positive(args, FLAGS.keepAliveMs);
  if (headersMs !== undefined) timeouts.headersMs = headersMs;
  if (requestMs !== undefined) timeouts.requestMs = requestMs;
  if (keepAliveMs !== undefined) timeouts.keepAliveMs = keepAliveMs;
  const limits: ServeLimits = { timeouts };
  if (maxWaitMs !== undefined) limits.maxWaitMs = maxWaitMs;
  if (budgetMb !== undefined) limits.decodeBudgetBytes = budgetMb * 1024 * 1024;
  return limits;
}
