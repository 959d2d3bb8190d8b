/** Token bucket per caller: `perMinute` requests a minute with bursts up to the same number. */
export class RateLimiter {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();

  /** Take one token for `caller`; returns 0 when allowed, else the seconds to wait. */
  take(caller: string, perMinute: number, now = Date.now()): number {
    const bucket = this.buckets.get(caller) ?? { tokens: perMinute, at: now };
    const refill = ((now - bucket.at) / 60_000) * perMinute;
    bucket.tokens = Math.min(perMinute, bucket.tokens + refill);
    bucket.at = now;
    this.buckets.set(caller, bucket);
    if (this.buckets.size > 10_000) this.prune(now);
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return 0;
    }
    return Math.max(1, Math.ceil(((1 - bucket.tokens) / perMinute) * 60));
  }

  /** Forget callers idle for over a minute (their bucket would be full anyway). */
  private prune(now: number): void {
    for (const [caller, bucket] of this.buckets) if (now - bucket.at > 60_000) this.buckets.delete(caller);
  }
}
