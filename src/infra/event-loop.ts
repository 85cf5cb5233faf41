// Long synchronous work on the serving thread (a job the server runs: people linking after an ingest,
// the index catching up) gives the event loop a turn now and then, so that requests are not held
// behind it.

/** Resolves once the event loop has run the callbacks waiting now (I/O, timers). */
export function yieldToEventLoop(): Promise<void> {
  return new Promise<void>((resolve) => setImmediate(resolve));
}

/** How long a slice of synchronous work may hold the event loop. */
export const SLICE_MS = 10;

/**
 * Slices a loop over many items: `if (slicer.due) await slicer.pause()` in the loop yields to the
 * event loop once `sliceMs` have passed since the last pause (checking costs a clock read, and no
 * await when not due).
 */
export class TimeSlicer {
  private since = performance.now();

  constructor(private readonly sliceMs = SLICE_MS) {}

  get due(): boolean {
    return performance.now() - this.since >= this.sliceMs;
  }

  async pause(): Promise<void> {
    await yieldToEventLoop();
    this.since = performance.now();
  }
}

/**
 * Calls `fn` for each item, yielding to the event loop whenever the slicer's slice is used up. The
 * items between two pauses run in a plain loop (an await inside a hot loop costs a microtask each
 * time, and keeps the loop from being optimised as well).
 */
export async function forEachSliced<T>(
  items: readonly T[],
  fn: (item: T, index: number) => void,
  slicer = new TimeSlicer(),
): Promise<void> {
  let i = 0;
  while (i < items.length) {
    do fn(items[i]!, i);
    while (++i < items.length && (i % 64 !== 0 || !slicer.due));
    if (i < items.length) await slicer.pause();
  }
}

/**
 * Runs work written as a generator (it yields where it may pause) to its end in one run: the same
 * work `runSliced` runs with pauses, for callers that cannot wait.
 */
export function runToEnd<T>(steps: Generator<void, T>): T {
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

/** Runs work written as a generator to its end, pausing at a yield once the slicer's slice is used up. */
export async function runSliced<T>(steps: Generator<void, T>, slicer = new TimeSlicer()): Promise<T> {
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
    if (slicer.due) await slicer.pause();
  }
}

/** Bytes copied between two turns of the event loop by `copyInPieces` (some 1-5 ms of copying). */
export const COPY_PIECE_BYTES = 4 * 1024 * 1024;

/**
 * A copy of `bytes` in a fresh buffer of its own, made `COPY_PIECE_BYTES` at a time with a turn of
 * the event loop between pieces: a 50 MB file copied in one run held the loop 70-260 ms (the copy's
 * first touches of fresh memory cost more than the copying).
 */
export async function copyInPieces(bytes: Uint8Array): Promise<Uint8Array> {
  const copy = new Uint8Array(bytes.length);
  for (let at = 0; at < bytes.length; at += COPY_PIECE_BYTES) {
    if (at > 0) await yieldToEventLoop();
    copy.set(bytes.subarray(at, at + COPY_PIECE_BYTES), at);
  }
  return copy;
}
