/**
 * Excel exports: rows are streamed from the database in batches into ExcelJS's streaming writer
 * (no shared strings) and straight to the response. Text cells that start with = + - @ are
 * neutralised with a leading apostrophe so a spreadsheet never runs them as formulas.
 */
import { once } from 'node:events';
import { PassThrough } from 'node:stream';
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
      while (out.writableNeedDrain && !out.destroyed) await Promise.race([once(out, 'drain'), once(out, 'close')]);
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
