/**
 * Excel exports: rows are streamed from the database in batches into ExcelJS's streaming writer
 * (no shared strings) and straight to the response. Text cells that start with = + - @ are
 * neutralised with a leading apostrophe so a spreadsheet never runs them as formulas.
 */
import { once, type EventEmitter } from 'node:events';
import { PassThrough, type Writable } from 'node:stream';
import type { FastifyReply } from 'fastify';
import { contentDisposition } from './userFiles.js';

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

/** Uncompressed sheet XML allowed to wait for the zip's deflate before the next batch is added. */
const ZIP_BACKLOG_BYTES = 1 << 20;

/**
 * ExcelJS hands the sheet's XML to the zip entry without waiting for it (its StreamBuf writes to its
 * pipes and ignores their back-pressure), so with a fast database the uncompressed XML piled up in the
 * entry's buffer: +160 MiB of RSS for 100,000 rows (issue 11). Waits until the entry has taken it.
 */
async function zipCaughtUp(ws: unknown, out: PassThrough): Promise<void> {
  const pipes = (ws as { stream?: { pipes?: unknown[] } }).stream?.pipes ?? [];
  for (const p of pipes) {
    // The entry is archiver's PassThrough from readable-stream 2, which has no writableLength.
    const entry = p as Writable & { _writableState?: { length: number } };
    const waiting = () => entry._writableState?.length ?? entry.writableLength ?? 0;
    while (waiting() > ZIP_BACKLOG_BYTES && !out.destroyed && !entry.destroyed) {
      await firstOf([entry, 'drain'], [entry, 'close'], [out, 'close']);
    }
  }
}

/** Streams the workbook as the answer. */
export function sendXlsx<T>(reply: FastifyReply, spec: XlsxSpec<T>): FastifyReply {
  const out = new PassThrough();
  const write = async () => {
    // ExcelJS loads with the first export, not at start-up (it is a large module graph).
    const { default: ExcelJS } = await import('exceljs');
    const wb = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useSharedStrings: false, useStyles: true });
    const ws = wb.addWorksheet(spec.sheetName);
    ws.columns = spec.columns.map((c, i) => ({ header: c.header, key: `c${i}`, width: c.width ?? 16 }));
    ws.getRow(1).font = { bold: true };
    for await (const batch of spec.rows) {
      // The client went away: stop reading the database.
      if (out.destroyed) return;
      for (const row of batch) ws.addRow(spec.columns.map((c) => neutralise(c.value(row)))).commit();
      // Back-pressure: let the zip stream catch up with the rows written, and hold the next batch
      // back while the client is not reading, so memory stays bounded.
      await new Promise((resolve) => setImmediate(resolve));
      await zipCaughtUp(ws, out);
      while (out.writableNeedDrain && !out.destroyed) await firstOf([out, 'drain'], [out, 'close']);
    }
    ws.commit();
    await wb.commit();
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
