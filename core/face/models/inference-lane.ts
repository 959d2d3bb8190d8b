/** Main-thread side of face inference: the face lane of the worker pool and sessions bound to it. */
import type { LoadModelOptions } from '../../models/registry.js';
import { faceLane, WorkerLane, type GroupName, type LaneStats } from '../../workers/index.js';
import type { LaneTuning } from '../../workers/sizing.js';
import type { CoreError } from '../../errors.js';
import type { faceHandlers, FaceWorkerInit } from './inference-handlers.js';

/** One verified ONNX model with a typed single-input call. */
export interface ModelSession {
  /** Run the model on one float tensor (transferred, do not reuse it) and return every output by name. */
  infer(data: Float32Array, dims: readonly number[]): Promise<Record<string, Float32Array>>;
  dispose(): Promise<void>;
}

/** Lane settings of the face workers (tests shrink them or add the fault group). */
export interface FaceWorkerOptions extends LaneTuning {
  /** Handler groups loaded beside the face models (the pool's fault group in tests), and their init data. */
  extraGroups?: GroupName[];
  extraInit?: Partial<Record<GroupName, unknown>>;
}

/** Face models loaded in every worker of one face lane. */
export class FaceInference {
  private constructor(
    /** The lane (exposed for health and for fault tests). */
    readonly lane: WorkerLane<typeof faceHandlers>,
    private readonly models: readonly string[],
  ) {}

  /**
   * Start the face workers, each loading `models` (sha256- and shape-checked, warmed up); rejects with the first
   * load failure, so a broken model stops the server instead of leaving it half-blind.
   */
  static async open(
    models: readonly string[],
    options: LoadModelOptions = {},
    workers: FaceWorkerOptions = {},
  ): Promise<FaceInference> {
    const { extraGroups = [], extraInit = {}, ...tuning } = workers;
    const init: FaceWorkerInit = { models: [...models], options };
    const lane = new WorkerLane<typeof faceHandlers>({
      ...faceLane(),
      ...tuning,
      name: 'face',
      label: 'face engine',
      groups: ['face', ...extraGroups],
      init: { ...extraInit, face: init },
    });
    try {
      await lane.start();
    } catch (error) {
      await lane.close();
      throw error;
    }
    return new FaceInference(lane, models);
  }

  /** A session of one loaded model (its dispose is a no-op: the lane owns the sessions). */
  session(name: string): ModelSession {
    if (!this.models.includes(name)) throw new Error(`Model ${name} is not loaded in these face workers.`);
    return {
      infer: (data, dims) =>
        this.lane.run(
          'face.infer',
          { model: name, data, dims: [...dims] },
          { transfer: [data.buffer as ArrayBuffer] },
        ),
      dispose: () => Promise.resolve(),
    };
  }

  /** Workers of the face lane. */
  get size(): number {
    return this.lane.stats().size;
  }

  /** The lane's figures. */
  stats(): LaneStats {
    return this.lane.stats();
  }

  /** Why the face workers cannot serve now, or null. */
  unavailable(): CoreError | null {
    return this.lane.unavailable();
  }

  /** Stop the workers (each releases its sessions first). */
  close(): Promise<void> {
    return this.lane.close();
  }
}
