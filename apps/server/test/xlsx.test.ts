import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import ExcelJS from 'exceljs';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { neutralise, sendXlsx } from '../src/platform/xlsx.js';

const BATCHES = 200;
const ROWS = 500;
let pulled = 0;
const app = Fastify();
app.get('/export', (_req, reply) => {
  pulled = 0;
  async function* rows() {
    for (let b = 0; b < BATCHES; b++) {
      pulled++;
      // Random text does not compress, so the workbook is far larger than the socket buffers.
      yield Array.from({ length: ROWS }, (_, i) => ({ n: b * ROWS + i, text: `第${b}批第${i}行 ${crypto.randomBytes(48).toString('hex')}` }));
    }
  }
  return sendXlsx(reply, { fileName: '导出', sheetName: '数据', columns: [{ header: '序号', value: (r) => r.n }, { header: '内容', value: (r) => r.text }], rows: rows() });
});
app.get('/broken', (_req, reply) => {
  async function* rows() {
    yield [{ n: 1 }];
    throw new Error('数据库连接中断');
  }
  return sendXlsx(reply, { fileName: '导出', sheetName: '数据', columns: [{ header: '序号', value: (r: { n: number }) => r.n }], rows: rows() });
});
let base = '';
beforeAll(async () => {
  await app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
});
afterAll(() => app.close());

describe('streaming Excel export', () => {
  it('neutralises cells that a spreadsheet would run as formulas', () => {
    expect(['=1+1', '+86', '-3', '@SUM(A1)', '正常', 12].map(neutralise)).toEqual(["'=1+1", "'+86", "'-3", "'@SUM(A1)", '正常', 12]);
  });

  it('holds the database back while the client does not read, and delivers every row when it does', async () => {
    const chunks: Buffer[] = [];
    let pulledWhilePaused = -1;
    await new Promise<void>((resolve, reject) => {
      http.get(`${base}/export`, (res) => {
        res.pause();
        setTimeout(() => {
          pulledWhilePaused = pulled;
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', resolve);
          res.resume();
        }, 400);
      }).on('error', reject);
    });
    // The client read nothing for a while: only a few batches were pulled meanwhile.
    expect(pulledWhilePaused).toBeGreaterThan(0);
    expect(pulledWhilePaused).toBeLessThan(BATCHES / 2);
    expect(pulled).toBe(BATCHES);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(Buffer.concat(chunks) as unknown as ArrayBuffer);
    const ws = wb.getWorksheet('数据')!;
    expect(ws.rowCount).toBe(BATCHES * ROWS + 1);
    expect(ws.getRow(2).getCell(2).value).toMatch(/^第0批第0行/);
  });

  it('cuts the download off, rather than ending it as if complete, when reading fails midway', async () => {
    const res = await fetch(`${base}/broken`);
    // Failed before the first byte: an error answer; after it: a cut body. Never a complete workbook.
    const outcome = res.status === 200 ? await res.arrayBuffer().then(() => 'complete', () => 'cut') : `status ${res.status}`;
    expect(['cut', 'status 500']).toContain(outcome);
    // The server goes on answering.
    const again = await fetch(`${base}/broken`);
    expect([200, 500]).toContain(again.status);
    await again.arrayBuffer().catch(() => undefined);
  });
});
