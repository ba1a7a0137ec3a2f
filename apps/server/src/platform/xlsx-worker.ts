/**
 * The Excel writer's thread (./xlsx.ts). ExcelJS builds every cell as objects and the sheet's XML as
 * strings; on the request thread that garbage grew the server's old generation by 150 MiB during a
 * 100,000-row export, and its CPU ran one after the other with reading the rows (the PostgreSQL driver
 * decodes them on that thread too). Here it runs beside the reading, in a heap of its own with a fixed
 * limit, and the heap is given back when the export ends.
 *
 * Messages in: { columns, sheetName } as workerData, then { rows } (cell values, already neutralised)
 * and { end: true }. Messages out: { chunk } (the workbook's bytes, in order, transferred), { ack }
 * after each rows message is written and deflated, { done } after the last byte, { error }.
 */
import { once, type EventEmitter } from 'node:events';
import { Writable } from 'node:stream';
import { parentPort, workerData } from 'node:worker_threads';
import ExcelJS from 'exceljs';

type Cell = string | number | null;
const { columns, sheetName } = workerData as { columns: { header: string; width: number }[]; sheetName: string };
const port = parentPort!;

/** Uncompressed sheet XML allowed to wait for the zip's deflate before the next rows are added. */
const ZIP_BACKLOG_BYTES = 1 << 20;

/** The first of these events; the listeners of the others are removed. */
async function firstOf(...events: [EventEmitter, string][]): Promise<void> {
  const ac = new AbortController();
  try {
    await Promise.race(events.map(([emitter, name]) => once(emitter, name, { signal: ac.signal })));
  } finally {
    ac.abort();
  }
}

/**
 * ExcelJS hands the sheet's XML to the zip entry without waiting for it (its StreamBuf ignores its
 * pipes' back-pressure), so the uncompressed XML would pile up in the entry's buffer when rows come
 * faster than deflate. Waits until the entry has taken it.
 */
async function zipCaughtUp(ws: unknown): Promise<void> {
  const pipes = (ws as { stream?: { pipes?: unknown[] } }).stream?.pipes ?? [];
  for (const p of pipes) {
    // The entry is archiver's PassThrough from readable-stream 2, which has no writableLength.
    const entry = p as Writable & { _writableState?: { length: number } };
    const waiting = () => entry._writableState?.length ?? entry.writableLength ?? 0;
    while (waiting() > ZIP_BACKLOG_BYTES && !entry.destroyed) await firstOf([entry, 'drain'], [entry, 'close']);
  }
}

const out = new Writable({
  write(chunk: Buffer, _enc, cb) {
    // A copy the size of the chunk, so that its memory moves to the request thread with it.
    const copy = new Uint8Array(chunk.byteLength);
    copy.set(chunk);
    port.postMessage({ chunk: copy }, [copy.buffer]);
    cb();
  },
  final(cb) {
    port.postMessage({ done: true });
    cb();
  },
});

const wb = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useSharedStrings: false, useStyles: true });
const ws = wb.addWorksheet(sheetName);
ws.columns = columns.map((c, i) => ({ header: c.header, key: `c${i}`, width: c.width }));
ws.getRow(1).font = { bold: true };

// One message at a time, in order: the next waits for the previous one's rows to be deflated.
let queue = Promise.resolve();
port.on('message', (m: { rows?: Cell[][]; end?: boolean }) => {
  queue = queue
    .then(async () => {
      if (m.rows) {
        for (const row of m.rows) ws.addRow(row).commit();
        await new Promise((resolve) => setImmediate(resolve));
        await zipCaughtUp(ws);
        port.postMessage({ ack: true });
      } else if (m.end) {
        ws.commit();
        await wb.commit();
      }
    })
    .catch((err: unknown) => port.postMessage({ error: err instanceof Error ? err.message : String(err) }));
});
