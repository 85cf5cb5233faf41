// A fixed pool of worker threads that parse manuscripts, so that parsing never blocks the event
// loop that serves requests, and one slow or hostile file costs one worker for at most the wall
// time limit: past it the worker is terminated, replaced, and the file's result says "timeout".
// Memory is bounded the same way: each worker's V8 heap has a hard limit (a file that needs more
// fails alone), and a worker that holds more than PARSE_WORKER_RECYCLE_MB after a file is replaced,
// since a V8 heap once grown is not given back to the system while its isolate lives.
// pdf.js decodes a stream into ArrayBuffers, outside the V8 heap and its limit; the PDF pre-check
// counts what it can foresee, and for anything it cannot (a shape of file it does not know, an
// encrypted file pdf.js decrypts first) the process's resident memory is watched while files are
// parsed: once it has grown by PARSE_MAX_RSS_GROWTH_MB since the oldest running parse began, every
// running parse fails and its worker is replaced. A concurrent innocent file fails with the hostile
// one (its upload is stored with the parse error, as for any file that cannot be read): that is the
// price of not letting one file take the whole process down.
import type { Worker } from 'node:worker_threads';
import type { ParsingLimits } from '../infra/config.ts';
import { DEFAULT_MAX_FILE_BYTES, failedResult } from './parse-manuscript.ts';
import type { ParseResult } from './types.ts';
import { startWorker } from '../infra/worker-thread.ts';
import { copyInPieces } from '../infra/event-loop.ts';

interface Task {
  id: number;
  bytes: Uint8Array;
  fileName: string | null;
  resolve: (result: ParseResult) => void;
}

interface Slot {
  worker: Worker;
  ready: boolean;
  task: Task | null;
  timer: NodeJS.Timeout | null;
  started: number;
  /** The process's resident memory when the slot's file began, in bytes. */
  rssAtStart: number;
  /** The worker's heap and external memory after its last file, in MB, as it reported them. */
  retainedMb: number;
}

export interface ParserPoolOptions {
  maxFileBytes?: number;
}

/**
 * Young generation of each worker, in MB: room enough that short-lived objects do not spill into
 * the old generation, whose limit is the budget that matters.
 */
const YOUNG_GENERATION_MB = 32;

/** How often the process's memory is sampled while files are parsed (a few µs a sample). */
const MEMORY_SAMPLE_MS = 50;

export interface ParserPoolStats {
  /** Worker threads started and alive. */
  workers: number;
  /** Workers parsing a file now. */
  busy: number;
  /** Files waiting for a worker. */
  queued: number;
  /** Workers replaced after a file because they held too much, since the pool started. */
  recycled: number;
  /** The workers' heaps and external memory after their last files, in MB, summed (0 before any). */
  retainedMb: number;
  /** Times the running parses were stopped because the process's memory grew too far. */
  memoryStops: number;
}

export class ParserPool {
  private readonly slots: Slot[] = [];
  private readonly queue: Task[] = [];
  private nextId = 1;
  private closed = false;
  private recycled = 0;
  private memoryWatch: NodeJS.Timeout | null = null;
  private memoryStops = 0;

  constructor(
    private readonly limits: ParsingLimits,
    private readonly options: ParserPoolOptions = {},
  ) {}

  /** Parses in a worker; never rejects: failures, timeouts and a closed pool come back as results. */
  async parse(bytes: Uint8Array, fileName: string | null): Promise<ParseResult> {
    if (this.closed) return failedResult('parser_failed', 'The parser pool is closed');
    // The caller keeps its buffer: the worker gets a copy it may consume.
    // A copy in a fresh ArrayBuffer of its own, transferred to the worker: Buffer#slice would be a
    // view, and transferring it would detach the caller's memory (possibly Node's shared pool).
    // Made a piece at a time: a 50 MB file is copied over a dozen turns of the event loop.
    const copy = await copyInPieces(bytes);
    if (this.closed) return failedResult('parser_failed', 'The parser pool is closed');
    return new Promise((resolve) => {
      this.queue.push({ id: this.nextId++, bytes: copy, fileName, resolve });
      this.fill();
      this.dispatch();
    });
  }

  /** The pool's state now (for /metrics and tests). */
  stats(): ParserPoolStats {
    return {
      workers: this.slots.length,
      busy: this.busy(),
      queued: this.queue.length,
      recycled: this.recycled,
      retainedMb: this.slots.reduce((sum, slot) => sum + slot.retainedMb, 0),
      memoryStops: this.memoryStops,
    };
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const task of this.queue.splice(0))
      task.resolve(failedResult('parser_failed', 'The parser pool closed'));
    await Promise.all(this.slots.splice(0).map((slot) => this.retire(slot, 'The parser pool closed')));
  }

  /** Workers start on first use: an app that never parses never pays for them. */
  private fill(): void {
    while (
      !this.closed &&
      this.slots.length < this.limits.workers &&
      this.slots.length < this.queue.length + this.busy()
    ) {
      this.slots.push(this.spawn());
    }
  }

  private busy(): number {
    return this.slots.filter((s) => s.task).length;
  }

  private spawn(): Slot {
    const worker = startWorker(import.meta.url, 'parse-worker', {
      workerData: {
        limits: this.limits,
        maxFileBytes: this.options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES,
      },
      resourceLimits: {
        maxOldGenerationSizeMb: this.limits.workerHeapMb,
        maxYoungGenerationSizeMb: YOUNG_GENERATION_MB,
      },
      stdout: false,
      stderr: false,
    });
    const slot: Slot = {
      worker,
      ready: false,
      task: null,
      timer: null,
      started: 0,
      rssAtStart: 0,
      retainedMb: 0,
    };
    worker.on('message', (msg: { type: string; id?: number; result?: ParseResult; retainedMb?: number }) => {
      if (msg.type === 'ready') {
        slot.ready = true;
        this.dispatch();
      } else if (msg.type === 'result' && slot.task && msg.id === slot.task.id && msg.result) {
        const task = slot.task;
        this.finish(slot);
        slot.retainedMb = msg.retainedMb ?? 0;
        task.resolve(msg.result);
        if ((msg.retainedMb ?? 0) > this.limits.workerRecycleMb) {
          this.recycled++;
          this.replace(slot);
        } else this.dispatch();
      }
    });
    worker.on('error', (error: Error & { code?: string }) =>
      this.fail(
        slot,
        error.code === 'ERR_WORKER_OUT_OF_MEMORY'
          ? `The file needs more than the parser's memory budget (${this.limits.workerHeapMb} MB)`
          : `The parser worker failed: ${error.message}`,
      ),
    );
    worker.on('exit', (code) => this.fail(slot, `The parser worker exited (code ${code})`));
    return slot;
  }

  private dispatch(): void {
    for (const slot of this.slots) {
      if (this.queue.length === 0) return;
      if (!slot.ready || slot.task) continue;
      const task = this.queue.shift()!;
      slot.task = task;
      slot.started = performance.now();
      slot.rssAtStart = process.memoryUsage.rss();
      this.watchMemory();
      slot.timer = setTimeout(() => this.timeout(slot), this.limits.timeoutMs);
      slot.timer.unref();
      slot.worker.postMessage({ id: task.id, bytes: task.bytes, fileName: task.fileName }, [
        task.bytes.buffer as ArrayBuffer,
      ]);
    }
  }

  private finish(slot: Slot): void {
    if (slot.timer) clearTimeout(slot.timer);
    slot.timer = null;
    slot.task = null;
    if (this.busy() === 0 && this.memoryWatch) {
      clearInterval(this.memoryWatch);
      this.memoryWatch = null;
    }
  }

  /** While files are parsed, the process's resident memory is sampled (see the header). */
  private watchMemory(): void {
    if (this.memoryWatch) return;
    this.memoryWatch = setInterval(() => this.checkMemory(), MEMORY_SAMPLE_MS);
    this.memoryWatch.unref();
  }

  private checkMemory(): void {
    const running = this.slots.filter((s) => s.task);
    if (running.length === 0) return;
    const since = Math.min(...running.map((s) => s.rssAtStart));
    const grownMb = (process.memoryUsage.rss() - since) / (1024 * 1024);
    if (grownMb <= this.limits.maxRssGrowthMb) return;
    this.memoryStops++;
    for (const slot of running) {
      const task = slot.task!;
      const result = failedResult(
        'parser_failed',
        `Parsing stopped: the files being parsed made the server's memory grow past ${this.limits.maxRssGrowthMb} MB`,
      );
      result.elapsed_ms = Math.round(performance.now() - slot.started);
      this.replace(slot);
      task.resolve(result);
    }
  }

  private timeout(slot: Slot): void {
    const task = slot.task;
    if (!task) return;
    const result = failedResult(
      'timeout',
      `Parsing took longer than ${this.limits.timeoutMs} ms and was stopped`,
    );
    result.elapsed_ms = Math.round(performance.now() - slot.started);
    this.replace(slot);
    task.resolve(result);
  }

  private fail(slot: Slot, message: string): void {
    if (!this.slots.includes(slot)) return;
    const task = slot.task;
    this.replace(slot);
    task?.resolve(failedResult('parser_failed', message));
  }

  /** Terminates a worker that timed out, died or held too much, and starts a fresh one in its place. */
  private replace(slot: Slot): void {
    const index = this.slots.indexOf(slot);
    if (index >= 0) this.slots.splice(index, 1);
    void this.retire(slot, null);
    this.fill();
    this.dispatch();
  }

  private async retire(slot: Slot, message: string | null): Promise<void> {
    const task = slot.task;
    this.finish(slot);
    slot.worker.removeAllListeners('exit');
    slot.worker.removeAllListeners('message');
    slot.worker.on('error', () => {});
    if (task && message) task.resolve(failedResult('parser_failed', message));
    await slot.worker.terminate();
  }
}
