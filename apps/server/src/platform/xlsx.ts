/**
 * Excel exports: rows are streamed from the database in batches into ExcelJS's streaming writer
 * (no shared strings), which runs on a thread of its own (./xlsx-worker.ts), and straight to the
 * response. Text cells that start with = + - @ are
 * neutralised with a leading apostrophe so a spreadsheet never runs them as formulas.
 */
import { once, type EventEmitter } from 'node:events';
import { PassThrough } from 'node:stream';
import type { Worker } from 'node:worker_threads';
import type { FastifyReply } from 'fastify';
import { contentDisposition } from './userFiles.js';
import { startWorker } from './worker-thread.js';

export interface XlsxColumn<T> {
  header: string;
  width?: number;
  value: (row: T) => string | number | null | undefined;
}

export interface XlsxSpec<T> {
  /** The download name, without extension (Chinese is fine). */
  fileName: string;
  sheetName: string;
  columns: XlsxColumn<T>[];
  /** Batches of rows, read from the database page by page. */
  rows: AsyncIterable<T[]>;
  /**
   * The 合计 row the page shows under its table, written after the last row through the same columns (the
   * first column carries its label, e.g. 合计（12 个）): every export of a list with totals has them in the file.
   */
  totals?: () => Promise<T>;
}

const FORMULA_START = /^[=+\-@\t\r]/;

/** Makes a text cell inert: a value a spreadsheet would read as a formula gets a leading apostrophe. */
export function neutralise(value: string | number | null | undefined): string | number | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'number') return value;
  return FORMULA_START.test(value) ? `'${value}` : value;
}

/** Reads a query page by page (offset paging in a stable order), batch by batch. */
export async function* batches<T>(page: (offset: number, limit: number) => Promise<T[]>, size = 500): AsyncIterable<T[]> {
  for (let offset = 0; ; offset += size) {
    const rows = await page(offset, size);
    if (rows.length) yield rows;
    if (rows.length < size) return;
  }
}

/** The first of these events; the listeners of the others are removed (a race of bare once() left them behind). */
async function firstOf(...events: [EventEmitter, string][]): Promise<void> {
  const ac = new AbortController();
  try {
    await Promise.race(events.map(([emitter, name]) => once(emitter, name, { signal: ac.signal })));
  } finally {
    ac.abort();
  }
}

/**
 * The writer thread's heap limits. Its live data stays under 30 MiB (rows are deflated before more
 * come); the limits make V8 collect instead of growing the heap with each batch's garbage (the
 * server's own heap grew by 90 MiB more when ExcelJS ran on it).
 */
export const XLSX_WORKER_LIMITS = { maxOldGenerationSizeMb: 64, maxYoungGenerationSizeMb: 8 };
/** Batches handed to the writer before the first is written: reading one while it writes the other. */
const IN_FLIGHT = 2;

/** One export's writer thread, fed batches of cells and pouring the workbook's bytes into `out`. */
class XlsxThread {
  private readonly worker: Worker;
  private waiting: Array<() => void> = [];
  private inFlight = 0;
  private failure: Error | null = null;
  private finished: Promise<void>;

  constructor(sheetName: string, columns: { header: string; width: number }[], out: PassThrough) {
    // ./xlsx-worker.ts, located in the sources, tsc's build and the bundle alike (worker-thread.ts).
    this.worker = startWorker('xlsx-worker', { workerData: { sheetName, columns }, resourceLimits: XLSX_WORKER_LIMITS });
    this.finished = new Promise((resolve, reject) => {
      this.worker.on('message', (m: { chunk?: Uint8Array; ack?: true; done?: true; error?: string }) => {
        if (m.chunk) out.write(Buffer.from(m.chunk.buffer, m.chunk.byteOffset, m.chunk.byteLength));
        else if (m.ack) this.settle();
        else if (m.done) resolve();
        else if (m.error !== undefined) this.fail(new Error(m.error), reject);
      });
      this.worker.on('error', (err) => this.fail(err, reject));
      this.worker.on('exit', (code) => this.fail(new Error(`Excel writer exited (${code})`), reject));
    });
    // The export's caller awaits each step; an early failure must not go unhandled meanwhile.
    this.finished.catch(() => undefined);
  }

  private settle(): void {
    this.inFlight--;
    this.waiting.shift()?.();
  }

  private fail(err: Error, reject: (e: Error) => void): void {
    this.failure ??= err;
    reject(this.failure);
    for (const w of this.waiting.splice(0)) w();
  }

  /** Hands a batch over; waits while IN_FLIGHT batches are not yet written. */
  async rows(rows: (string | number | null)[][]): Promise<void> {
    while (this.inFlight >= IN_FLIGHT && !this.failure) await new Promise<void>((resolve) => this.waiting.push(resolve));
    if (this.failure) throw this.failure;
    this.inFlight++;
    this.worker.postMessage({ rows });
  }

  /** Closes the workbook; resolves once its last byte is in `out`. */
  async end(): Promise<void> {
    if (this.failure) throw this.failure;
    this.worker.postMessage({ end: true });
    await this.finished;
  }

  close(): void {
    void this.worker.terminate();
  }
}

/** Streams the workbook as the answer. */
export function sendXlsx<T>(reply: FastifyReply, spec: XlsxSpec<T>): FastifyReply {
  const out = new PassThrough();
  const write = async () => {
    const writer = new XlsxThread(spec.sheetName, spec.columns.map((c) => ({ header: c.header, width: c.width ?? 16 })), out);
    try {
      for await (const batch of spec.rows) {
        // The client went away: stop reading the database.
        if (out.destroyed) return;
        // The cells are taken here (the columns' functions stay on this thread) and written there,
        // while this thread reads the next batch.
        await writer.rows(batch.map((row) => spec.columns.map((c) => neutralise(c.value(row)))));
        // Back-pressure: hold the next batch back while the client is not reading.
        while (out.writableNeedDrain && !out.destroyed) await firstOf([out, 'drain'], [out, 'close']);
      }
      if (spec.totals && !out.destroyed) {
        const totals = await spec.totals();
        await writer.rows([spec.columns.map((c) => neutralise(c.value(totals)))]);
      }
      await writer.end();
      out.end();
    } finally {
      writer.close();
    }
  };
  write().catch((err: unknown) => {
    reply.log.error({ err }, 'xlsx export failed');
    out.destroy(err instanceof Error ? err : new Error(String(err)));
  });
  return reply
    .header('Content-Type', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
    .header('Content-Disposition', contentDisposition('attachment', `${spec.fileName}.xlsx`))
    .header('Cache-Control', 'no-store')
    .send(out);
}
