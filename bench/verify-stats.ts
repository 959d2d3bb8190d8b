/** Figures of `npm run bench:verify`: percentiles, per-step times from Server-Timing, one summary line. */

/** One answered request. */
export interface Sample {
  ms: number;
  status: number;
  body: Record<string, unknown>;
  /** Server-Timing entries: step name → ms. */
  steps: Record<string, number>;
}

/** The p-quantile (nearest rank) of a list of numbers. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(sorted.length * p) - 1))]!;
}

/** `name;dur=12.3, other;dur=4` → { name: 12.3, other: 4 }. */
export function serverTimings(header: string | null): Record<string, number> {
  const out: Record<string, number> = {};
  for (const entry of (header ?? '').split(',')) {
    const [name, ...params] = entry.trim().split(';');
    const dur = params.map((p) => /^dur=([\d.]+)$/.exec(p.trim())).find(Boolean);
    if (name && dur) out[name] = Number(dur[1]);
  }
  return out;
}

/** Per-feature ms of an id_card result (v1 body or v2 details.id_card). */
function featureTimes(body: Record<string, unknown>): Record<string, number> {
  const details = body.details as Record<string, Record<string, unknown>> | undefined;
  const features = (details?.id_card?.features ?? body.features) as
    { feature: string; ms: number }[] | undefined;
  return Object.fromEntries((features ?? []).map((f) => [`id_card.${f.feature}`, f.ms]));
}

/** One sample's step times: the Server-Timing entries and the id_card features' ms. */
function stepTimes(sample: Sample): Record<string, number> {
  return { ...sample.steps, ...featureTimes(sample.body) };
}

/** One sample's steps: "id_card.mrz 186, id_card.ghost_portrait 24". */
export function stepsOf(sample: Sample): string {
  return Object.entries(stepTimes(sample))
    .map(([name, value]) => `${name} ${value.toFixed(0)}`)
    .join(', ');
}

/** "p50 … / p95 … / max … ms, statuses, passed, step p50s" for a set of samples. */
export function summary(samples: readonly Sample[]): string {
  const ms = samples.map((s) => s.ms);
  const statuses = new Map<string, number>();
  for (const s of samples) {
    const key = `${s.status} ${typeof s.body.status === 'string' ? s.body.status : ''}`.trim();
    statuses.set(key, (statuses.get(key) ?? 0) + 1);
  }
  const steps = new Map<string, number[]>();
  for (const s of samples) {
    for (const [name, value] of Object.entries(stepTimes(s))) {
      steps.set(name, [...(steps.get(name) ?? []), value]);
    }
  }
  const stepText = [...steps]
    .map(([name, values]) => `${name} ${percentile(values, 0.5).toFixed(0)}`)
    .join(', ');
  return (
    `p50 ${percentile(ms, 0.5).toFixed(0)} / p95 ${percentile(ms, 0.95).toFixed(0)} / max ${Math.max(...ms).toFixed(0)} ms` +
    ` (${[...statuses].map(([k, n]) => `${k}×${n}`).join(', ')})` +
    (stepText ? `; step p50 ms: ${stepText}` : '')
  );
}
