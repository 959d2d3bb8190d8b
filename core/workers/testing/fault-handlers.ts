/**
 * A handler group that fails on demand, for the pool's own tests (workers that exit, throw at top level, hang or
 * fail to start). Production lanes never load it.
 */
import fs from 'node:fs';
import { CoreError } from '../../errors.js';
import type { HandlerGroup, TaskContext } from '../handler-types.js';
import { guardOnnxRuntime } from '../native-section.js';

/** How the next job of another kind fails in this worker (`fault.arm`). */
type Armed = 'exit' | 'throw' | 'hang';

let armed: Armed | undefined;

function hang(): never {
  for (;;) {
    // A synchronous loop: the worker cannot even read messages, only terminate() stops it.
  }
}

function throwAtTopLevel(): void {
  setImmediate(() => {
    throw new Error('fault injected at top level');
  });
}

/** The fault kinds. */
export const faultHandlers = {
  /** Echo the payload back (a healthy job). */
  'fault.echo': (value: unknown) => value,
  /** Sleep `ms` (async), ending early with CANCELLED-like null when the caller cancels. */
  'fault.sleep': async ({ ms }: { ms: number }, context: TaskContext) => {
    const started = performance.now();
    while (performance.now() - started < ms) {
      if (context.cancelled()) return { cancelled: true, ms: performance.now() - started };
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    return { cancelled: false, ms: performance.now() - started };
  },
  /** Spin synchronously for `ms`, polling the shared cancel flag. */
  'fault.spin': ({ ms }: { ms: number }, context: TaskContext) => {
    const started = performance.now();
    while (performance.now() - started < ms) if (context.cancelled()) return { cancelled: true };
    return { cancelled: false };
  },
  /** Whether the job is the process's only pool job (TaskContext.alone). */
  'fault.alone': (_: undefined, context: TaskContext) => context.alone(),
  /** Throw a CoreError with the given code, field and extras. */
  'fault.coded': ({ field, extra }: { field: string; extra: Record<string, unknown> }) => {
    throw new CoreError('QUALITY_TOO_LOW', 'injected quality failure', { field, extra });
  },
  /** Throw a plain error. */
  'fault.plain': () => {
    throw new Error('injected plain failure');
  },
  /** End the worker thread in the middle of the job. */
  'fault.exit': () => process.exit(3),
  /** Throw outside the handler, where nothing catches it. */
  'fault.throw': () => {
    throwAtTopLevel();
    return new Promise(() => undefined);
  },
  /** Never return. */
  'fault.hang': () => hang(),
  /** Make the next job of any other kind in this worker exit, throw at top level or hang instead of running. */
  'fault.arm': ({ fault }: { fault: Armed }) => {
    armed = fault;
    return true;
  },
  /**
   * Run an onnxruntime model back to back for `ms` (the terminate guard on): a time limit shorter than that
   * must stop the worker between two runs, never inside one (which would abort the process).
   */
  'fault.onnx-loop': async ({ ms }: { ms: number }) => {
    const ort = await import('onnxruntime-node');
    const { loadModel } = await import('../../models/registry.js');
    guardOnnxRuntime(ort);
    const { entry, session } = await loadModel('fr_detect');
    const [name, shape] = Object.entries(entry.inputs)[0]!;
    const input = new ort.Tensor('float32', new Float32Array(shape.reduce((p, d) => p * d, 1)), shape);
    const started = performance.now();
    let runs = 0;
    while (performance.now() - started < ms) {
      await session.run({ [name]: input });
      runs++;
    }
    return runs;
  },
  /** Transfer a result buffer back instead of copying it. */
  'fault.bytes': ({ length }: { length: number }, context: TaskContext) => {
    const bytes = new Uint8Array(length).fill(7);
    context.transfer(bytes.buffer);
    return bytes;
  },
};

/** Init data: `failStart` makes every worker fail to start (a crash loop); `failStartIfExists` once a file exists. */
export interface FaultInit {
  failStart?: 'throw' | 'exit';
  failStartIfExists?: string;
}

/** The fault group. */
export const faultGroup: HandlerGroup<typeof faultHandlers> = {
  handlers: faultHandlers,
  init(data) {
    const init = (data ?? {}) as FaultInit;
    if (init.failStart === 'throw') throw new Error('injected start failure');
    if (init.failStart === 'exit') process.exit(4);
    if (init.failStartIfExists && fs.existsSync(init.failStartIfExists))
      throw new Error('injected start failure');
  },
  beforeJob(kind) {
    if (!armed || kind.startsWith('fault.')) return;
    const fault = armed;
    armed = undefined;
    if (fault === 'exit') process.exit(5);
    if (fault === 'throw') throwAtTopLevel();
    if (fault === 'hang') hang();
  },
};
