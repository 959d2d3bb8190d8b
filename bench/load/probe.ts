import http from 'node:http';
import { memoryOf } from './server-process.js';

/** What the prober saw while it ran. */
export interface ProbeReport {
  /** Health probe latencies, ms (a probe without an answer counts as its timeout). */
  health: number[];
  /** Health probes that did not answer 200. */
  healthFailures: number;
  /** Largest RSS sampled, bytes. */
  maxRss: number;
}

/**
 * Probe a health route every `everyMs` (each probe on its own connection, concurrently with the load) and sample the
 * server's RSS at the same beat, until stopped.
 */
export function startProbe(url: string, pid: number, everyMs = 100): { stop(): Promise<ProbeReport> } {
  const report: ProbeReport = { health: [], healthFailures: 0, maxRss: 0 };
  const pending = new Set<Promise<void>>();
  const probeOnce = (): Promise<void> =>
    new Promise((resolve) => {
      const started = performance.now();
      const done = (ok: boolean): void => {
        report.health.push(performance.now() - started);
        if (!ok) report.healthFailures++;
        resolve();
      };
      const req = http.get(`${url}/docs/fingerprint/api/health`, { agent: false, timeout: 10_000 }, (res) => {
        res.resume();
        res.on('end', () => {
          done(res.statusCode === 200);
        });
      });
      req.on('timeout', () => {
        req.destroy();
      });
      req.on('error', () => {
        done(false);
      });
    });
  const timer = setInterval(() => {
    report.maxRss = Math.max(report.maxRss, memoryOf(pid).rss);
    const probe = probeOnce().finally(() => pending.delete(probe));
    pending.add(probe);
  }, everyMs);
  return {
    stop: async () => {
      clearInterval(timer);
      await Promise.all(pending);
      return report;
    },
  };
}

/** The q-quantile (0-1) of unsorted values; NaN when empty. */
export function quantile(values: readonly number[], q: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
}
