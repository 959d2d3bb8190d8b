/** What an engine's health says about its worker lanes. */
import type { LaneStats } from './lane.js';

/** Anything with lane figures. */
export interface HasLaneStats {
  stats(): LaneStats;
}

/** The `workers` part of an engine's health: every lane's figures, and status `error` when one cannot serve. */
export function workersHealth(lanes: readonly HasLaneStats[]): {
  status?: 'error';
  message?: string;
  workers: Record<string, LaneStats>;
} {
  const workers: Record<string, LaneStats> = {};
  for (const lane of lanes) {
    const stats = lane.stats();
    workers[stats.name] = stats;
  }
  const down = Object.values(workers).filter((s) => s.state === 'failed' || s.state === 'closed');
  if (down.length === 0) return { workers };
  return {
    status: 'error',
    message: down
      .map((s) =>
        s.state === 'closed'
          ? `The ${s.name} workers are shut down.`
          : `The ${s.name} workers cannot start (${s.lastFailure?.reason ?? 'unknown'}).`,
      )
      .join(' '),
    workers,
  };
}
