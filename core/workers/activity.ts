/**
 * How many pool jobs the process has, queued or running, in every lane: one shared cell that lanes count on the main
 * thread and workers read. A job that finds itself alone may spend a second core (see TaskContext.alone).
 */

let cells: Int32Array | undefined;

/** The cell, made on first use on the main thread (a worker gets it in its boot data). */
function cell(): Int32Array {
  cells ??= new Int32Array(new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT));
  return cells;
}

/** The process's activity cell, to hand to a worker. */
export function activityBuffer(): SharedArrayBuffer {
  return cell().buffer as SharedArrayBuffer;
}

/** In a worker: read activity from the cell the main thread shares. */
export function attachActivity(buffer: SharedArrayBuffer): void {
  cells = new Int32Array(buffer);
}

/** A job was admitted (queued) on some lane. */
export function jobAdmitted(): void {
  Atomics.add(cell(), 0, 1);
}

/** A job settled (answered, failed or cancelled). */
export function jobSettled(): void {
  Atomics.sub(cell(), 0, 1);
}

/** Jobs queued or running in every lane of the process, this one included. */
export function activeJobs(): number {
  return cells ? Atomics.load(cells, 0) : 0;
}
