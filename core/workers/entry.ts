/**
 * The one worker entry of every lane: loads the lane's handler groups, runs their `init`, then serves jobs one at a
 * time by task kind, answering each with its result or its (serialised) error.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { serializeError } from './error-transfer.js';
import type { HandlerGroup, TaskContext, TaskHandler } from './handler-types.js';
import { activeJobs, attachActivity } from './activity.js';
import { attachControl } from './native-section.js';
import { CONTROL_CANCEL, type FromWorker, type ToWorker, type WorkerBoot } from './protocol.js';
import { HANDLER_GROUPS, isGroupName } from './registry.js';

const boot = workerData as WorkerBoot;
const control = new Int32Array(boot.control);
attachControl(control);
attachActivity(boot.activity);
const port = parentPort!;
const send = (message: FromWorker, transfer: ArrayBuffer[] = []): void => {
  port.postMessage(message, transfer);
};

async function load(): Promise<{ groups: HandlerGroup[]; table: Map<string, TaskHandler> }> {
  const groups: HandlerGroup[] = [];
  const table = new Map<string, TaskHandler>();
  for (const name of boot.groups) {
    if (!isGroupName(name)) throw new Error(`No handler group named "${name}".`);
    const group = await HANDLER_GROUPS[name]();
    for (const [kind, handler] of Object.entries(group.handlers)) {
      if (table.has(kind)) throw new Error(`Task kind "${kind}" is registered twice.`);
      table.set(kind, handler);
    }
    groups.push(group);
    await group.init?.(boot.init[name]);
  }
  return { groups, table };
}

function serve(groups: HandlerGroup[], table: Map<string, TaskHandler>): void {
  const running = new Map<number, AbortController>();
  const jobs = new Set<Promise<void>>();
  port.on('message', (message: ToWorker) => {
    switch (message.type) {
      case 'cancel':
        running.get(message.id)?.abort();
        return;
      case 'close':
        port.removeAllListeners('message');
        // Release sessions only once no job can still use them, then leave by emptying the event loop.
        void Promise.allSettled(jobs)
          .then(() =>
            Promise.allSettled(
              groups.map(async (g) => {
                await g.dispose?.();
              }),
            ),
          )
          .then(() => {
            port.close();
          });
        return;
      case 'job': {
        const job = runJob(message, groups, table, running);
        jobs.add(job);
        void job.finally(() => jobs.delete(job));
        return;
      }
    }
  });
  send({ type: 'ready' });
}

async function runJob(
  job: Extract<ToWorker, { type: 'job' }>,
  groups: HandlerGroup[],
  table: Map<string, TaskHandler>,
  running: Map<number, AbortController>,
): Promise<void> {
  const started = performance.now();
  const abort = new AbortController();
  const transfer: ArrayBuffer[] = [];
  const context: TaskContext = {
    cancelled: () => Atomics.load(control, CONTROL_CANCEL) === job.id,
    alone: () => activeJobs() <= 1,
    signal: abort.signal,
    transfer: (...buffers) => transfer.push(...buffers),
  };
  running.set(job.id, abort);
  try {
    for (const group of groups) group.beforeJob?.(job.kind);
    const handler = table.get(job.kind);
    if (!handler) throw new Error(`This worker has no handler for task kind "${job.kind}".`);
    const value = await handler(job.payload as never, context);
    const ms = performance.now() - started;
    try {
      send({ type: 'done', id: job.id, ok: true, value, ms }, transfer);
    } catch (error) {
      // A result that cannot be cloned is the handler's bug: report it instead of leaving the caller waiting.
      send({ type: 'done', id: job.id, ok: false, error: serializeError(error), ms });
    }
  } catch (error) {
    send({
      type: 'done',
      id: job.id,
      ok: false,
      error: serializeError(error),
      ms: performance.now() - started,
    });
  } finally {
    running.delete(job.id);
  }
}

load().then(
  ({ groups, table }) => {
    serve(groups, table);
  },
  (error: unknown) => {
    send({ type: 'init-failed', error: serializeError(error) });
    port.close();
  },
);
