/** Exponential backoff settings. */
export interface BackoffPolicy {
  /** Delay before the first retry, in milliseconds. */
  initialMs: number;
  /** Factor applied to the delay after each failed attempt (>= 1). */
  multiplier: number;
  /** Upper bound of any single delay, in milliseconds. */
  maxMs: number;
}

/**
 * Delay before retry number `attempt` (1 = first retry): initial * multiplier^(attempt-1), capped.
 * `jitter` in [0,1] scales a random reduction of up to that fraction, so many clients do not retry in lockstep.
 */
export function backoffDelay(
  policy: BackoffPolicy,
  attempt: number,
  jitter = 0,
  random: () => number = Math.random,
): number {
  const exponent = Math.max(0, attempt - 1);
  const raw = Math.min(policy.maxMs, policy.initialMs * policy.multiplier ** exponent);
  return Math.max(0, Math.round(raw * (1 - jitter * random())));
}

/** A sleep that ends early (resolving `false`) when the signal aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<boolean> {
  return new Promise((resolve) => {
    if (signal?.aborted) {
      resolve(false);
      return;
    }
    const onAbort = (): void => {
      clearTimeout(timer);
      resolve(false);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve(true);
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
