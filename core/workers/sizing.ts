/**
 * Lane sizes and limits for a branch PC (2 cores): every engine has its own lane of the same pool class, each no
 * wider than the machine, so a 1 s MRZ read never queues a 40 ms fingerprint extraction and a face worker's
 * sessions are loaded once per worker (reasons in docs/decisions.md, "Worker pool").
 */
import os from 'node:os';
import type { LaneOptions } from './lane.js';

/** Lane settings a caller may override (tests shrink sizes and time limits). */
export type LaneTuning = Partial<
  Pick<
    LaneOptions,
    | 'size'
    | 'maxQueue'
    | 'maxWaitMs'
    | 'timeoutMs'
    | 'maxStartFailures'
    | 'restartCooldownMs'
    | 'startTimeoutMs'
  >
>;

/** Default longest expected wait before a job is refused with 503, ms. */
export const DEFAULT_MAX_WAIT_MS = 2000;

function cores(): number {
  return os.availableParallelism();
}

/** Fingerprint extraction (~40 ms of pure JS): leave a core to the event loop, at most two workers. */
export function fingerprintLane(): Omit<LaneOptions, 'name' | 'label' | 'groups'> {
  return {
    size: Math.max(1, Math.min(2, cores() - 1)),
    maxQueue: 16,
    maxWaitMs: DEFAULT_MAX_WAIT_MS,
    timeoutMs: 30_000,
  };
}

/**
 * Face model calls: one worker per core (at most two), one intra-op thread per session. Requests are admitted
 * per operation by the face engine's gate, so the lane itself never refuses a model call of an admitted request.
 */
export function faceLane(): Omit<LaneOptions, 'name' | 'label' | 'groups'> {
  return {
    size: Math.max(1, Math.min(2, cores())),
    maxQueue: 256,
    maxWaitMs: Number.POSITIVE_INFINITY,
    timeoutMs: 30_000,
  };
}

/** Document image work (MRZ reading, ORB marks, PDF417): one worker per core, at most two. */
export function documentLane(): Omit<LaneOptions, 'name' | 'label' | 'groups'> {
  return {
    size: Math.max(1, Math.min(2, cores())),
    maxQueue: 16,
    maxWaitMs: DEFAULT_MAX_WAIT_MS,
    timeoutMs: 60_000,
  };
}

/** Printed-text OCR (tesseract.js, seconds per page): one worker per core, at most two. */
export function ocrTextLane(): Omit<LaneOptions, 'name' | 'label' | 'groups'> {
  return {
    size: Math.max(1, Math.min(2, cores())),
    maxQueue: 8,
    maxWaitMs: DEFAULT_MAX_WAIT_MS,
    timeoutMs: 120_000,
  };
}

/** The HTTP layer's request queues: each heavy route's whole request is admitted by one of them. */
export type RequestQueueName = 'fingerprint' | 'face' | 'document' | 'ocr' | 'verify';

/** Admission of whole requests to one queue (core/http/admission.ts). */
export interface RequestQueueSizing {
  /** Requests served at once. */
  concurrency: number;
  /** Requests allowed to wait; one more is refused. */
  maxQueue: number;
  /** Expected time of one request before one is measured, ms. */
  expectedMs: number;
}

/**
 * Request queues sized to the lanes behind them: as many requests at once as the lane has workers, plus one that
 * reads and decodes its upload meanwhile, so the workers never wait for the next request's pixels.
 */
export function requestQueues(): Record<RequestQueueName, RequestQueueSizing> {
  const face = faceLane().size;
  const document = documentLane().size;
  return {
    fingerprint: { concurrency: fingerprintLane().size + 1, maxQueue: 32, expectedMs: 150 },
    face: { concurrency: face + 1, maxQueue: 16, expectedMs: 500 },
    document: { concurrency: document, maxQueue: 16, expectedMs: 2000 },
    ocr: { concurrency: ocrTextLane().size, maxQueue: 8, expectedMs: 3000 },
    verify: { concurrency: Math.min(face, document), maxQueue: 8, expectedMs: 2500 },
  };
}
