/**
 * Issue 13, the usage lock: "available → locked (backs a reimbursement line in progress, or a signing in
 * progress) → closed (reimbursed and booked, or archived against a contract). One invoice backs at most
 * one active use; a second use is refused with a message that names the document that holds it (e.g.
 * 该发票已用于报销单 BX202611-0012). Locks are taken and released in the same transaction as the business
 * change, on SQLite and PostgreSQL alike, and hold under concurrent requests."
 * The business areas call the service; here a probe route stands in for them (one request = one
 * transaction that locks, waits a little as a business change would, and commits or fails).
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IncomeSource, IncomeUsage, text, Uuid } from '@zhyy/shared';
import { arrive } from '../src/modules/income/intake/arrival.js';
import { close, lock, release } from '../src/modules/income/identity/locks.js';
import { pages } from '../src/platform/access.js';
import { ok, refuse } from '../src/platform/envelope.js';
import { typed } from '../src/platform/route.js';
import { startTestServer, type TestServer } from './helpers.js';
import { entry } from './income-helpers.js';

const Probe = z.object({
  id: Uuid,
  action: z.enum(['lock', 'release', 'close']),
  kind: z.enum(['reimbursement', 'sign', 'contract']),
  docNo: text(),
  waitMs: z.number().int().min(0).max(1000).default(0),
  fail: z.boolean().default(false),
});

async function probe(app: FastifyInstance) {
  typed(app).post('/api/test/income-use', { schema: { body: Probe }, config: { access: pages('/income/invoicePool/list') } }, async (req) => {
    const b = req.body;
    await app.db.kysely.transaction().execute(async (trx) => {
      const use = { kind: b.kind, docNo: b.docNo };
      if (b.action === 'lock') await lock(b.id, use, trx);
      else if (b.action === 'release') await release(b.id, use, trx);
      else await close(b.id, use, trx);
      if (b.waitMs) await new Promise((r) => setTimeout(r, b.waitMs));
      if (b.fail) throw refuse('业务保存失败');
    });
    return ok(null);
  });
}

let s: TestServer;
let t13: string;
const use = (body: Record<string, unknown>) => s.call('/api/test/income-use', body, t13);

beforeAll(async () => {
  s = await startTestServer({ extraModules: [probe] });
  t13 = await s.login('demo13');
});
afterAll(() => s?.close());

/** A new collected invoice in the pool (its own number; no lines). */
async function fresh(): Promise<string> {
  const e = entry({ lines: [] });
  const a = await s.db.kysely.transaction().execute((trx) => arrive({ ...e, kind: '81', lines: [], invoiceCode: '', invoiceNo: '', checkCode: '' }, IncomeSource.collected, trx));
  return a.id;
}
const row = (id: string) => s.db.kysely.selectFrom('income_invoices').select(['usage', 'use_kind', 'doc_no']).where('id', '=', id).executeTakeFirstOrThrow();
const activeLocks = async (id: string) => (await s.db.kysely.selectFrom('income_locks').select('state').where('invoice_id', '=', id).where('active', '=', 1).execute()).length;

describe('lock transitions', () => {
  it('available → locked → closed; a second use of a held or closed invoice names the document', async () => {
    const id = await fresh();
    expect((await use({ id, action: 'lock', kind: 'reimbursement', docNo: 'BX202611-0012' })).code).toBe(20000);
    expect(await row(id)).toEqual({ usage: IncomeUsage.locked, use_kind: 'reimbursement', doc_no: 'BX202611-0012' });
    // The same document taking it again changes nothing.
    expect((await use({ id, action: 'lock', kind: 'reimbursement', docNo: 'BX202611-0012' })).code).toBe(20000);
    const second = await use({ id, action: 'lock', kind: 'reimbursement', docNo: 'BX202611-0099' });
    expect(second.status).toBe(409);
    expect(second.message).toBe('该发票已用于报销单 BX202611-0012');
    expect((await use({ id, action: 'close', kind: 'reimbursement', docNo: 'BX202611-0012' })).code).toBe(20000);
    expect((await row(id)).usage).toBe(IncomeUsage.closed);
    expect((await use({ id, action: 'lock', kind: 'contract', docNo: 'HT2026-001' })).message).toBe('该发票已用于报销单 BX202611-0012');
    expect((await use({ id, action: 'release', kind: 'reimbursement', docNo: 'BX202611-0012' })).message).toBe('该发票已随报销单 BX202611-0012 完成使用，不能释放');
    expect(await activeLocks(id)).toBe(1);
    const d = await s.call('/api/income/pool/detail', { id }, t13);
    expect(d.r.uses).toEqual([expect.objectContaining({ useKind: 'reimbursement', docNo: 'BX202611-0012', state: 'closed' })]);
    expect(d.r.history.map((h: { message: string }) => h.message).slice(0, 2)).toEqual(['报销单 BX202611-0012 完成使用（已关闭）', '被报销单 BX202611-0012 占用']);
  });

  it('locked → released → available again for another document; only the holder may release', async () => {
    const id = await fresh();
    expect((await use({ id, action: 'lock', kind: 'sign', docNo: 'QS-0001' })).code).toBe(20000);
    const wrong = await use({ id, action: 'release', kind: 'reimbursement', docNo: 'BX202611-0001' });
    expect(wrong.message).toBe('该发票未被报销单 BX202611-0001 占用');
    expect((await use({ id, action: 'release', kind: 'sign', docNo: 'QS-0001' })).code).toBe(20000);
    expect(await row(id)).toEqual({ usage: IncomeUsage.available, use_kind: '', doc_no: '' });
    expect(await activeLocks(id)).toBe(0);
    expect((await use({ id, action: 'lock', kind: 'contract', docNo: 'HT2026-007' })).code).toBe(20000);
    expect((await use({ id, action: 'lock', kind: 'sign', docNo: 'QS-0002' })).message).toBe('该发票已用于合同 HT2026-007');
  });

  it('takes the lock in the business transaction: a failed business change leaves the invoice available', async () => {
    const id = await fresh();
    const failed = await use({ id, action: 'lock', kind: 'reimbursement', docNo: 'BX202611-0500', fail: true });
    expect(failed.message).toBe('业务保存失败');
    expect((await row(id)).usage).toBe(IncomeUsage.available);
    expect(await activeLocks(id)).toBe(0);
  });

  it('refuses a voided invoice and an unknown one', async () => {
    const id = await fresh();
    await s.db.kysely.updateTable('income_invoices').set({ invoice_state: 2 }).where('id', '=', id).execute();
    expect((await use({ id, action: 'lock', kind: 'reimbursement', docNo: 'BX1' })).message).toBe('该发票作废，不能使用');
    const none = await use({ id: '00000000-0000-4000-8000-000000000000', action: 'lock', kind: 'reimbursement', docNo: 'BX1' });
    expect([none.status, none.message]).toEqual([404, '发票不存在']);
  });
});

describe('concurrent double use', () => {
  it('two requests at once: one wins, the other is told which document holds the invoice', async () => {
    for (let round = 0; round < 5; round++) {
      const id = await fresh();
      const [a, b] = await Promise.all([
        use({ id, action: 'lock', kind: 'reimbursement', docNo: `BX202611-A${round}`, waitMs: 50 }),
        use({ id, action: 'lock', kind: 'reimbursement', docNo: `BX202611-B${round}`, waitMs: 50 }),
      ]);
      const won = [a, b].filter((x) => x.code === 20000);
      const lost = [a, b].filter((x) => x.code !== 20000);
      expect(won).toHaveLength(1);
      expect(lost).toHaveLength(1);
      const holder = (await row(id)).doc_no;
      expect(lost[0]!.message).toBe(`该发票已用于报销单 ${holder}`);
      expect(await activeLocks(id)).toBe(1);
    }
  });

  it('the unique active-lock index refuses a second active lock written by any other path', async () => {
    const id = await fresh();
    const at = new Date().toISOString();
    await s.db.kysely.insertInto('income_locks').values({ id: crypto.randomUUID(), invoice_id: id, use_kind: 'sign', doc_no: 'X1', state: 'locked', active: 1, created_at: at, ended_at: null }).execute();
    await expect(s.db.kysely.insertInto('income_locks').values({ id: crypto.randomUUID(), invoice_id: id, use_kind: 'sign', doc_no: 'X2', state: 'locked', active: 1, created_at: at, ended_at: null }).execute()).rejects.toThrow();
  });
});
