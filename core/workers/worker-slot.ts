/** One worker thread of a lane: starts it on the entry, relays its messages, and stops it safely. */
import { activityBuffer } from './activity.js';
import type { Worker } from 'node:worker_threads';
import { reviveError } from './error-transfer.js';
import { startWorkerThread } from './entry-location.js';
import {
  CONTROL_CANCEL,
  CONTROL_CELLS,
  CONTROL_NATIVE,
  CONTROL_STOP,
  type FromWorker,
  type ToWorker,
  type WorkerBoot,
} from './protocol.js';

/** What a slot tells its lane. */
export interface SlotEvents {
  ready(slot: WorkerSlot): void;
  /** The worker could not start: its init threw, or it died first. */
  startFailed(slot: WorkerSlot, error: Error): void;
  done(slot: WorkerSlot, message: Extract<FromWorker, { type: 'done' }>): void;
  /** The worker is gone after it was ready (exit, uncaught error). */
  gone(slot: WorkerSlot, reason: string): void;
}

/** Interval at which a terminate waits for a native call to end. */
const NATIVE_POLL_MS = 5;

/** A worker thread and its state. */
export class WorkerSlot {
  readonly worker: Worker;
  readonly control: Int32Array;
  state: 'starting' | 'idle' | 'busy' | 'gone' = 'starting';
  /** Id of the job it runs (state busy). */
  jobId: number | undefined;
  #exited = false;
  readonly #exit: Promise<void>;

  constructor(boot: Omit<WorkerBoot, 'control' | 'activity'>, events: SlotEvents) {
    const control = new SharedArrayBuffer(CONTROL_CELLS * Int32Array.BYTES_PER_ELEMENT);
    this.control = new Int32Array(control);
    this.worker = startWorkerThread({
      workerData: { ...boot, control, activity: activityBuffer() } satisfies WorkerBoot,
    });
    this.#exit = new Promise((resolve) => {
      this.worker.once('exit', () => {
        this.#exited = true;
        resolve();
      });
    });
    this.worker.on('message', (message: FromWorker) => {
      if (this.state === 'gone') return;
      switch (message.type) {
        case 'ready':
          this.state = 'idle';
          events.ready(this);
          return;
        case 'init-failed':
          this.state = 'gone';
          events.startFailed(this, reviveError(message.error));
          void this.terminate();
          return;
        case 'done':
          events.done(this, message);
          return;
      }
    });
    let reported = false;
    const lost = (reason: string): void => {
      if (reported || this.state === 'gone') return;
      reported = true;
      const wasStarting = this.state === 'starting';
      this.state = 'gone';
      if (wasStarting) events.startFailed(this, new Error(`The worker stopped while starting: ${reason}`));
      else events.gone(this, reason);
    };
    this.worker.on('error', (error) => {
      lost(`uncaught error: ${error.message}`);
    });
    this.worker.on('exit', (code) => {
      lost(`exited with code ${code}`);
    });
  }

  /** Post a job (transferring `transfer`). */
  post(message: Extract<ToWorker, { type: 'job' }>, transfer: ArrayBuffer[]): void {
    Atomics.store(this.control, CONTROL_CANCEL, 0);
    this.jobId = message.id;
    this.state = 'busy';
    this.worker.ref();
    this.worker.postMessage(message, transfer);
  }

  /** Flag the running job as cancelled (the handler polls the flag) and abort its in-worker signal. */
  cancel(id: number): void {
    Atomics.store(this.control, CONTROL_CANCEL, id);
    this.worker.postMessage({ type: 'cancel', id } satisfies ToWorker);
  }

  /** Terminate now, or as soon as no native call is in progress (the flag check and the lock are one atomic step). */
  async terminate(): Promise<void> {
    this.state = 'gone';
    Atomics.store(this.control, CONTROL_STOP, 1);
    while (!this.#exited && Atomics.compareExchange(this.control, CONTROL_NATIVE, 0, -1) !== 0) {
      await new Promise<void>((resolve) => setTimeout(resolve, NATIVE_POLL_MS).unref());
    }
    if (!this.#exited) await this.worker.terminate();
  }

  /** Ask the worker to finish its job, release what it holds and leave; terminate it if it has not within `graceMs`. */
  async close(graceMs: number): Promise<void> {
    if (this.#exited) return;
    this.state = 'gone';
    this.worker.postMessage({ type: 'close' } satisfies ToWorker);
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<boolean>((resolve) => {
      timer = setTimeout(() => {
        resolve(true);
      }, graceMs);
    });
    const timedOut = await Promise.race([this.#exit.then(() => false), late]);
    clearTimeout(timer);
    if (timedOut) await this.terminate();
  }
}
