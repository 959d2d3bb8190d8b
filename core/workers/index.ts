/** The worker pool every engine uses: lanes of worker threads, operation gates, health. */
export { WorkerLane, type LaneOptions, type LaneStats, type RunOptions, type Timed } from './lane.js';
export { OperationGate, type GateOptions, type GateStats } from './gate.js';
export { workersHealth, type HasLaneStats } from './health.js';
export { withSignal, ambientSignal } from './ambient-signal.js';
export { setWorkerEntry } from './entry-location.js';
export type { HandlerGroup, TaskContext, TaskHandler, HandlerTable } from './handler-types.js';
export type { GroupName } from './registry.js';
export * from './sizing.js';
