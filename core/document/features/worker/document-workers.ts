/** Main-thread side of the document engine's worker lane: feature tasks and MRZ reads. */
import type { DecodedImage } from '../../../imaging/decode.js';
import {
  documentLane,
  WorkerLane,
  type GroupName,
  type LaneStats,
  type RunOptions,
  type Timed,
} from '../../../workers/index.js';
import type { LaneTuning } from '../../../workers/sizing.js';
import type { MrzReading } from '../../mrz/types.js';
import type { documentHandlers, MrzImage } from './handlers.js';
import type { FeatureTask, FeatureTaskResults, RgbInput } from './tasks.js';

/** What the detectors need: run a feature task, get its result and the worker's own time. */
export interface FeatureTaskRunner {
  run<K extends FeatureTask['kind']>(
    task: Extract<FeatureTask, { kind: K }>,
    options?: RunOptions,
  ): Promise<Timed<FeatureTaskResults[K]>>;
}

/** Lane settings of the document workers. */
export interface DocumentWorkerOptions extends LaneTuning {
  /** Load the MRZ model when each worker starts (the server), not on its first read (tests, tools). */
  preloadMrz?: boolean;
  /** Handler groups loaded beside the document group (the pool's fault group in tests). */
  extraGroups?: GroupName[];
}

/** A copy of exactly the pixels (the request keeps its own), to hand to a worker without another copy. */
function copyPixels(rgb: Uint8Array): Uint8Array<ArrayBuffer> {
  return Uint8Array.from(rgb);
}

/** The document lane: ORB mark tasks, PDF417 decoding and MRZ reading on worker threads. */
export class DocumentWorkers implements FeatureTaskRunner {
  readonly lane: WorkerLane<typeof documentHandlers>;

  constructor(options: DocumentWorkerOptions = {}) {
    const { preloadMrz = false, extraGroups = [], ...tuning } = options;
    this.lane = new WorkerLane<typeof documentHandlers>({
      ...documentLane(),
      ...tuning,
      name: 'document',
      label: 'document engine',
      groups: ['document', ...extraGroups],
      init: { document: { preloadMrz } },
    });
  }

  /** Run a feature task (its image is copied to the worker when a worker takes it). */
  run<K extends FeatureTask['kind']>(
    task: Extract<FeatureTask, { kind: K }>,
    options: RunOptions = {},
  ): Promise<Timed<FeatureTaskResults[K]>> {
    const image: RgbInput = { ...task.image };
    const copy = { ...task, image } as FeatureTask;
    const prepare = (): ArrayBuffer[] => {
      image.rgb = copyPixels(image.rgb);
      return [image.rgb.buffer as ArrayBuffer];
    };
    const kind = `document.${task.kind}` as const;
    // The lane's handler table ties each kind to its own task shape; the union is narrowed here by `kind`.
    const run = this.lane.runTimed.bind(this.lane) as (
      kind: string,
      payload: unknown,
      options: RunOptions,
    ) => Promise<Timed<FeatureTaskResults[K]>>;
    return run(kind, copy, { ...options, prepare });
  }

  /** Read the MRZ of an image on a worker (`readMrz` of core/document/mrz, same result); null when none. */
  readonly readMrz = (image: DecodedImage, options: RunOptions = {}): Promise<MrzReading | null> => {
    const payload: MrzImage = {
      format: image.format,
      width: image.width,
      height: image.height,
      rgb: image.rgb,
    };
    if (image.dpi !== undefined) payload.dpi = image.dpi;
    const prepare = (): ArrayBuffer[] => {
      const rgb = copyPixels(image.rgb);
      payload.rgb = rgb;
      return [rgb.buffer];
    };
    return this.lane.run('document.mrz', payload, { ...options, prepare });
  };

  /** Start every worker now (and load the MRZ model if asked), so the first document does not pay for it. */
  start(): Promise<void> {
    return this.lane.start();
  }

  /** The lane's figures. */
  stats(): LaneStats {
    return this.lane.stats();
  }

  /** Stop the workers. */
  close(): Promise<void> {
    return this.lane.close();
  }
}
