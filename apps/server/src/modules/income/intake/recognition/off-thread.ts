/**
 * Recognition off the request thread (issue 30): a 131 KB PNG of 40 megapixels was seconds of decoding on
 * the thread that answers every request, and four at once held another user's userinfo for 6 s. Files are
 * recognised in a small pool of worker threads (./worker.ts), started on first use and kept while the
 * server runs (unreferenced when idle, so they never keep a process alive). A worker that dies (its memory
 * limit) or takes longer than RECOGNITION_TIMEOUT_MS is ended and the file answered with a Chinese warning
 * instead of an error; the next file gets a new worker.
 */
import type { Worker } from 'node:worker_threads';
import { startWorker } from '../../../../platform/worker-thread.js';
import type { UploadedFile } from './recognise.js';
import type { Recognition } from './types.js';

/** Workers at most: two files recognised at once on the 2-core machine, the rest wait their turn. */
export const RECOGNITION_WORKERS = 2;
/** One file's recognition is given up after this long (a file of the 20 MB limit takes a few seconds). */
export const RECOGNITION_TIMEOUT_MS = 60_000;
/**
 * A worker's heap limits: the decoders' pixel buffers live outside the heap and are bounded by the pixel
 * limit (image-decode.ts MAX_PIXELS); the heap holds a PDF's parsed objects.
 */
export const RECOGNITION_WORKER_LIMITS = { maxOldGenerationSizeMb: 256, maxYoungGenerationSizeMb: 16 };

export const RECOGNITION_FAILED = '文件过大或过于复杂，未能在限定时间内识别，请上传原始发票文件或手工填写';

interface Job {
  file: UploadedFile;
  resolve(r: Recognition): void;
}

class RecognitionWorker {
  private readonly worker: Worker;
  private current: { id: number; job: Job; timer: NodeJS.Timeout } | null = null;
  private next = 1;
  dead = false;

  constructor(private readonly onIdle: (w: RecognitionWorker) => void) {
    // ./worker.ts, located in the sources, tsc's build and the bundle alike (platform/worker-thread.ts).
    this.worker = startWorker('recognition-worker', { resourceLimits: RECOGNITION_WORKER_LIMITS });
    this.worker.unref();
    this.worker.on('message', (m: { id: number; ok: boolean; value?: Recognition; error?: string }) => {
      if (!this.current || m.id !== this.current.id) return;
      this.finish(m.ok && m.value ? m.value : failed());
    });
    const fail = () => {
      this.dead = true;
      if (this.current) this.finish(failed());
    };
    this.worker.on('error', fail);
    this.worker.on('exit', fail);
  }

  get busy(): boolean {
    return this.current !== null;
  }

  run(job: Job): void {
    const id = this.next++;
    // Keep the process alive while a file is out; past the time limit the worker is ended.
    this.worker.ref();
    const timer = setTimeout(() => {
      this.dead = true;
      this.finish(failed());
      void this.worker.terminate();
    }, RECOGNITION_TIMEOUT_MS);
    timer.unref();
    this.current = { id, job, timer };
    this.worker.postMessage({ id, file: job.file });
  }

  private finish(r: Recognition): void {
    const c = this.current;
    if (!c) return;
    this.current = null;
    clearTimeout(c.timer);
    this.worker.unref();
    c.job.resolve(r);
    this.onIdle(this);
  }

  terminate(): Promise<number> {
    this.dead = true;
    return this.worker.terminate();
  }
}

const failed = (): Recognition => ({ kind: 'unknown', fields: {}, warnings: [RECOGNITION_FAILED] });

class RecognitionPool {
  private workers: RecognitionWorker[] = [];
  private queue: Job[] = [];

  recognise(file: UploadedFile): Promise<Recognition> {
    return new Promise((resolve) => {
      this.queue.push({ file, resolve });
      this.pump();
    });
  }

  private pump = (): void => {
    this.workers = this.workers.filter((w) => !w.dead);
    while (this.queue.length) {
      let w = this.workers.find((x) => !x.busy);
      if (!w && this.workers.length < RECOGNITION_WORKERS) this.workers.push((w = new RecognitionWorker(() => this.pump())));
      if (!w) return;
      w.run(this.queue.shift()!);
    }
  };

  async close(): Promise<void> {
    await Promise.all(this.workers.map((w) => w.terminate()));
    this.workers = [];
  }
}

let pool: RecognitionPool | null = null;

/** `recognise` in a worker thread: the same answer, never an error (a failure is a warning). */
export function recogniseOffThread(file: UploadedFile): Promise<Recognition> {
  pool ??= new RecognitionPool();
  return pool.recognise(file);
}
