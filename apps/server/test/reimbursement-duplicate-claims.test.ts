/**
 * Issue 32 #4: duplicate claims that carry no invoice number. "The usage lock catches one invoice in two bills.
 * It does not catch the same expense claimed twice with receipts that have no number (定额发票, a taxi receipt, a
 * toll receipt, a paper ticket scanned twice), or by two colleagues. Flag lines that match another claim on
 * seller, amount and date (within a tolerance you define and document), across employees, as a check the approver
 * sees with a link to the other bill; the approver may accept it with an opinion."
 *
 * The tolerance: the same seller (sellerKey), the same amount to the 分, dates at most DUPLICATE_CLAIM_DAYS (3)
 * apart, in bills that are claims (审批中, 已通过). Set-up: reimbursement-apply-fixture.ts (two staff members of
 * different departments, so their bills go to different approvers). Each case uses its own amount, so the
 * cases do not match one another.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DUPLICATE_CLAIM_DAYS, ReimbFlowState, sellerKey } from '@zhyy/shared';
import { backfillSellers, sellerKey as frozenSellerKey } from '../src/db/migrations/0048_reimb_duplicate_claims.backfill.js';
import type { TestServer } from './helpers.js';
import { shanghaiDay } from './income-helpers.js';
import { openHandlers } from './workflow-helpers.js';
import { applyHelpers, header, line, person, startApplyServer } from './reimbursement-apply-fixture.js';

let s: TestServer;
const A = person();
const B = person();
let t12 = '';
const { call, invoice, bill } = applyHelpers(() => s);

beforeAll(async () => {
  ({ s, t12 } = await startApplyServer(A, B));
});
afterAll(() => s?.close());

interface Check {
  code: string;
  level: string;
  message: string;
  ref?: { billId: string; billNo: string; lineId: string; lineNo: number; applicantName: string; expenseDate: string; amount: number; sellerName: string; days: number };
  accepted?: { by: string; at: string; opinion: string };
}
const dupes = (checks: Check[]) => checks.filter((c) => c.code === 'duplicateClaim');

/** A taxi receipt without a number: a line with no pool invoice, the seller typed. */
const taxi = (amount: number, daysAgo: number, sellerName = '北京出租汽车有限公司') =>
  line({ categoryCode: 'T-TRAFFIC', city: '北京', description: '出租车', amount, expenseDate: shanghaiDay(-daysAgo), sellerName });

/** Saves and submits a bill of one or more lines; its id, number, first line's id and the login of its current approver. */
async function claim(token: string, lines: unknown[]) {
  const a = await call('/bill/save', { ...header(), lines }, token);
  expect(a.code, a.message).toBe(20000);
  const sub = await call('/bill/submit', { id: a.r.id }, token);
  expect(sub.code, sub.message).toBe(20000);
  const d = (await call('/bill/get', { id: a.r.id }, token)).r;
  const approver = (await openHandlers(s, sub.r.workId))[0]!;
  return { id: a.r.id as string, no: a.r.billNo as string, lineId: d.lines[0].id as string, workId: sub.r.workId as number, approver, approverToken: await s.login(approver) };
}
const read = async (id: string, token: string) => (await call('/bill/get', { id }, token)).r as { lines: Array<{ id: string; checks: Check[]; sellerName: string }> };

describe('two colleagues\' identical taxi receipts', () => {
  let a: Awaited<ReturnType<typeof claim>>;
  let b: Awaited<ReturnType<typeof claim>>;

  it('both bills are flagged, each linking to the other, whatever the spelling of the seller and a day apart', async () => {
    a = await claim(A.token, [taxi(3_650, 6, '北京出租汽车有限公司')]);
    b = await claim(B.token, [taxi(3_650, 5, ' 北京出租汽车公司')]);
    expect(a.approver).not.toBe(b.approver);
    const seenByA = dupes((await read(a.id, a.approverToken)).lines[0]!.checks);
    expect(seenByA).toEqual([
      {
        code: 'duplicateClaim', level: 'warn',
        message: '与另一员工的报销单的收款方（北京出租汽车公司）、金额（36.50 元）相同，日期相差 1 天，疑似重复报销',
        ref: { billId: b.id, billNo: b.no, lineId: b.lineId, lineNo: 1, applicantName: B.name, expenseDate: shanghaiDay(-5), amount: 3_650, sellerName: '北京出租汽车公司', days: 1 },
      },
    ]);
    const seenByB = dupes((await read(b.id, b.approverToken)).lines[0]!.checks);
    expect(seenByB.map((c) => [c.ref?.billId, c.ref?.lineId, c.ref?.applicantName])).toEqual([[a.id, a.lineId, A.name]]);
    // The seller the check matched on is shown with the line.
    expect((await read(a.id, A.token)).lines[0]!.sellerName).toBe('北京出租汽车有限公司');
  });

  it('the applicant sees the finding but not the colleague\'s bill; roles 12 see the reference on the ledger\'s view', async () => {
    const own = dupes((await read(a.id, A.token)).lines[0]!.checks);
    expect(own).toHaveLength(1);
    expect(own[0]!.ref).toBeUndefined();
    expect(own[0]!.message).not.toContain(b.no);
    expect(own[0]!.message).not.toContain(B.name);
    const ledger = dupes((await call('/bill/detail', { id: a.id }, t12)).r.lines[0].checks);
    expect(ledger[0]!.ref?.billNo).toBe(b.no);
  });

  it('the approver opens the other bill through the match, without its payee account, files or track; nobody else does', async () => {
    const p = await call('/bill/peer', { id: a.id, peerId: b.id }, a.approverToken);
    expect(p.code, p.message).toBe(20000);
    expect(p.r).toMatchObject({ id: b.id, billNo: b.no, applicantName: B.name, flowStateName: '审批中', amount: 3_650 });
    expect(p.r.lines).toEqual([expect.objectContaining({ id: b.lineId, lineNo: 1, sellerName: '北京出租汽车公司', amount: 3_650, matched: true })]);
    expect(Object.keys(p.r)).not.toContain('payeeAccount');
    expect(JSON.stringify(p.r)).not.toContain(header().payeeAccount);
    expect(Object.keys(p.r)).not.toContain('track');
    // The approver of A's bill does not read B's bill itself, nor through a bill they do not handle.
    expect((await call('/bill/get', { id: b.id }, a.approverToken)).status).toBe(403);
    expect((await call('/bill/peer', { id: b.id, peerId: a.id }, a.approverToken)).status).toBe(403);
    // The applicants: not through their own bill either.
    expect((await call('/bill/peer', { id: a.id, peerId: b.id }, A.token)).status).toBe(403);
    expect((await call('/bill/get', { id: b.id }, A.token)).status).toBe(403);
    expect((await call('/bill/peer', { id: b.id, peerId: a.id }, B.token)).status).toBe(403);
    // A bill the match does not name: refused even to the approver.
    const other = await claim(B.token, [taxi(7_310, 5)]);
    expect((await call('/bill/peer', { id: a.id, peerId: other.id }, a.approverToken)).status).toBe(403);
  });

  it('the approver accepts the match with an opinion: recorded and shown on the finding; only the current approver, only a standing match', async () => {
    const body = { lineId: a.lineId, otherLineId: b.lineId, opinion: '两人分别乘车，已核对行程' };
    expect((await call('/bill/accept-duplicate', body, A.token)).status).toBe(403);
    expect((await call('/bill/accept-duplicate', body, b.approverToken)).status).toBe(403);
    const empty = await call('/bill/accept-duplicate', { ...body, opinion: ' ' }, a.approverToken);
    expect([empty.status, empty.message]).toEqual([400, '参数错误：请填写接受意见']);
    const wrong = await call('/bill/accept-duplicate', { ...body, otherLineId: a.lineId }, a.approverToken);
    expect([wrong.code, wrong.message]).toEqual([30000, '该费用与所选报销单的费用已不再疑似重复，请刷新后查看']);
    const ok = await call('/bill/accept-duplicate', body, a.approverToken);
    expect([ok.code, ok.message]).toEqual([20000, `已接受与报销单 ${b.no} 的疑似重复`]);
    const c = dupes((await read(a.id, a.approverToken)).lines[0]!.checks)[0]!;
    expect(c.accepted).toMatchObject({ opinion: '两人分别乘车，已核对行程' });
    expect(c.accepted!.by).toBeTruthy();
    // The applicant sees that it was accepted (not the other bill); B's approver still has B's own finding open.
    expect(dupes((await read(a.id, A.token)).lines[0]!.checks)[0]!.accepted?.opinion).toBe('两人分别乘车，已核对行程');
    expect(dupes((await read(b.id, b.approverToken)).lines[0]!.checks)[0]!.accepted).toBeUndefined();
    const rows = await s.db.kysely.selectFrom('reimb_dup_accepts').selectAll().where('line_id', '=', a.lineId).execute();
    expect(rows.map((r) => [r.other_line_id, r.other_bill_no, r.opinion])).toEqual([[b.lineId, b.no, '两人分别乘车，已核对行程']]);
    const log = await s.db.kysely.selectFrom('operation_logs').select('description').where('description', 'like', `接受疑似重复报销：报销单 ${a.no}%`).execute();
    expect(log.map((l) => l.description)).toEqual([`接受疑似重复报销：报销单 ${a.no} 第1行与报销单 ${b.no} 第1行（两人分别乘车，已核对行程）`]);
  });
});

describe('the same receipt entered twice in one bill (a paper ticket scanned twice)', () => {
  let a: Awaited<ReturnType<typeof claim>>;
  let ids: string[] = [];

  it('both lines are flagged, each naming the other line of the bill; another amount or a date out of the tolerance is not', async () => {
    const lines = [taxi(5_530, 20), taxi(5_530, 20, '北京出租汽车公司'), taxi(5_540, 20), taxi(5_530, 20 - DUPLICATE_CLAIM_DAYS - 1)];
    // The applicant sees it on the saved draft already (the editor finds the same while typing).
    const draft = await call('/bill/save', { ...header(), lines }, A.token);
    expect(draft.code, draft.message).toBe(20000);
    const mine = (await read(draft.r.id, A.token)).lines;
    expect(mine.map((l) => dupes(l.checks).map((c) => c.message))).toEqual([
      ['与本单第2行的收款方（北京出租汽车公司）、金额（55.30 元）相同，日期相同，疑似重复报销'],
      ['与本单第1行的收款方（北京出租汽车有限公司）、金额（55.30 元）相同，日期相同，疑似重复报销'],
      [],
      [],
    ]);
    expect((await call('/bill/delete', { id: draft.r.id }, A.token)).code).toBe(20000);
    a = await claim(A.token, lines);
    const seen = (await read(a.id, a.approverToken)).lines;
    ids = seen.map((l) => l.id);
    expect(dupes(seen[0]!.checks)).toEqual([
      {
        code: 'duplicateClaim', level: 'warn',
        message: '与本单第2行的收款方（北京出租汽车公司）、金额（55.30 元）相同，日期相同，疑似重复报销',
        ref: { billId: a.id, billNo: a.no, lineId: ids[1], lineNo: 2, applicantName: A.name, expenseDate: shanghaiDay(-20), amount: 5_530, sellerName: '北京出租汽车公司', days: 0 },
      },
    ]);
    expect(dupes(seen[1]!.checks).map((c) => [c.ref?.billId, c.ref?.lineId, c.ref?.lineNo])).toEqual([[a.id, ids[0], 1]]);
    expect(seen.slice(2).map((l) => dupes(l.checks))).toEqual([[], []]);
    // There is no other bill to open.
    expect((await call('/bill/peer', { id: a.id, peerId: a.id }, a.approverToken)).status).toBe(403);
  });

  it('the approver accepts the pair with an opinion: both lines show it accepted', async () => {
    const body = { lineId: ids[1]!, otherLineId: ids[0]!, opinion: '同一张车票扫描两次，已核减' };
    expect((await call('/bill/accept-duplicate', body, A.token)).status).toBe(403);
    const wrong = await call('/bill/accept-duplicate', { ...body, otherLineId: ids[2]! }, a.approverToken);
    expect([wrong.code, wrong.message]).toEqual([30000, '该费用与所选报销单的费用已不再疑似重复，请刷新后查看']);
    const ok = await call('/bill/accept-duplicate', body, a.approverToken);
    expect([ok.code, ok.message]).toEqual([20000, '已接受与本单第1行的疑似重复']);
    const seen = (await read(a.id, a.approverToken)).lines;
    expect(seen.slice(0, 2).map((l) => dupes(l.checks)[0]!.accepted?.opinion)).toEqual(['同一张车票扫描两次，已核减', '同一张车票扫描两次，已核减']);
    const log = await s.db.kysely.selectFrom('operation_logs').select('description').where('description', 'like', `接受疑似重复报销：报销单 ${a.no}%`).execute();
    expect(log.map((l) => l.description)).toEqual([`接受疑似重复报销：报销单 ${a.no} 第2行与本单第1行（同一张车票扫描两次，已核减）`]);
  });
});

describe('the tolerance', () => {
  it(`dates ${DUPLICATE_CLAIM_DAYS} days apart match; ${DUPLICATE_CLAIM_DAYS + 1} days, another seller or one 分 more do not`, async () => {
    const a = await claim(A.token, [taxi(4_210, 10), taxi(4_220, 10), taxi(4_230, 10), taxi(4_240, 10)]);
    await claim(B.token, [taxi(4_210, 10 - DUPLICATE_CLAIM_DAYS), taxi(4_220, 10 - DUPLICATE_CLAIM_DAYS - 1), taxi(4_230, 10, '天津出租汽车有限公司'), taxi(4_241, 10)]);
    const lines = (await read(a.id, a.approverToken)).lines;
    expect(lines.map((l) => dupes(l.checks).length)).toEqual([1, 0, 0, 0]);
    expect(dupes(lines[0]!.checks)[0]!.ref?.days).toBe(DUPLICATE_CLAIM_DAYS);
  });

  it('two different invoices with numbers are two documents: not flagged; a typed receipt against an invoice is', async () => {
    const mine = await invoice(A.id, { issueDate: shanghaiDay(-12) });
    // Issued a day apart (the same seller, day and total would be duplicateInvoice's block), claimed for the same day.
    const theirs = await invoice(B.id, { issueDate: shanghaiDay(-13) });
    const a = await claim(A.token, [line({ invoiceId: mine, amount: 10_900, expenseDate: shanghaiDay(-12) })]);
    const b = await claim(B.token, [line({ invoiceId: theirs, amount: 10_900, expenseDate: shanghaiDay(-12) })]);
    expect(dupes((await read(a.id, a.approverToken)).lines[0]!.checks)).toEqual([]);
    // The invoice's seller is the line's seller; a paper receipt of the same seller, amount and day is a match.
    const seller = (await s.db.kysely.selectFrom('income_invoices').select('seller_name').where('id', '=', mine).executeTakeFirstOrThrow()).seller_name;
    const c = await claim(B.token, [line({ amount: 10_900, expenseDate: shanghaiDay(-11), sellerName: seller })]);
    expect(dupes((await read(a.id, a.approverToken)).lines[0]!.checks).map((x) => x.ref?.billId)).toEqual([c.id]);
    expect(dupes((await read(c.id, c.approverToken)).lines[0]!.checks).map((x) => x.ref?.billId).sort()).toEqual([a.id, b.id].sort());
  });
});

describe('only claims count', () => {
  it('a draft, a withdrawn bill and a returned (rejected) bill do not count; a resubmitted one does again', async () => {
    const b = await claim(B.token, [taxi(6_180, 8)]);
    const draft = await call('/bill/save', { ...header(), lines: [taxi(6_180, 8)] }, A.token);
    expect(draft.code).toBe(20000);
    expect(dupes((await read(b.id, b.approverToken)).lines[0]!.checks)).toEqual([]);
    // Submitted: it counts.
    const sub = await call('/bill/submit', { id: draft.r.id }, A.token);
    expect(sub.code, sub.message).toBe(20000);
    expect(dupes((await read(b.id, b.approverToken)).lines[0]!.checks).map((c) => c.ref?.billId)).toEqual([draft.r.id]);
    // Withdrawn (撤回, back to 草稿): no longer.
    expect((await call('/bill/withdraw', { id: draft.r.id }, A.token)).code).toBe(20000);
    expect((await bill(draft.r.id)).flow_state).toBe(ReimbFlowState.draft);
    expect(dupes((await read(b.id, b.approverToken)).lines[0]!.checks)).toEqual([]);
    // Resubmitted, then returned by its approver (退回): no longer either.
    const again = await call('/bill/submit', { id: draft.r.id }, A.token);
    expect(again.code, again.message).toBe(20000);
    expect(dupes((await read(b.id, b.approverToken)).lines[0]!.checks)).toHaveLength(1);
    const mgr = await s.login((await openHandlers(s, again.r.workId))[0]!);
    const ret = await s.call('/api/miswf/workflow/return', { workId: again.r.workId, toNodeId: 'start', reason: '重复报销，退回' }, mgr);
    expect(ret.code, ret.message).toBe(20000);
    expect((await bill(draft.r.id)).flow_state).toBe(ReimbFlowState.returned);
    expect(dupes((await read(b.id, b.approverToken)).lines[0]!.checks)).toEqual([]);
  });
});

describe('the index', () => {
  it('the match is one range of reimb_lines_dup_idx (seller_key, amount, expense_date)', async () => {
    const { sql } = await import('kysely');
    if (s.db.dialect === 'postgres') {
      // PostgreSQL plans by the table's statistics (a test database is small): the index is there, in this order.
      const ix = await sql<{ indexdef: string }>`select indexdef from pg_indexes where indexname = 'reimb_lines_dup_idx'`.execute(s.db.kysely);
      expect(ix.rows[0]?.indexdef).toMatch(/\(seller_key, amount, expense_date\)/);
      return;
    }
    const plan = await sql<{ detail: string }>`explain query plan
      select l.id from reimb_lines l join reimb_bills b on b.id = l.bill_id
      where l.seller_key = ${'北京出租汽车'} and l.amount = ${3_650} and l.expense_date >= ${'2026-01-01'} and l.expense_date <= ${'2026-01-07'} and b.flow_state in (1, 3)`.execute(s.db.kysely);
    const text = plan.rows.map((r) => r.detail).join('\n');
    expect(text).toMatch(/SEARCH l USING INDEX reimb_lines_dup_idx \(seller_key=\? AND amount=\? AND expense_date>\? AND expense_date<\?\)/);
  });
});

describe('migration 0048\'s backfill (frozen)', () => {
  it('gives the existing lines the seller of their invoice and the key today\'s rule gives, as the demo seed writes them', async () => {
    const k = s.db.kysely;
    const seeded = await k.selectFrom('reimb_lines').select(['id', 'seller_name', 'seller_key']).where('invoice_id', 'is not', null).orderBy('id').execute();
    expect(seeded.length).toBeGreaterThan(10);
    expect(seeded.every((l) => l.seller_name && l.seller_key === sellerKey(l.seller_name!))).toBe(true);
    // The state before the migration: no sellers; the backfill restores what the seed wrote.
    const ids = seeded.map((l) => l.id);
    await k.updateTable('reimb_lines').set({ seller_name: '', seller_key: '' }).where('id', 'in', ids).execute();
    await backfillSellers(k);
    expect(await k.selectFrom('reimb_lines').select(['id', 'seller_name', 'seller_key']).where('id', 'in', ids).orderBy('id').execute()).toEqual(seeded);
    // The frozen copy of the rule is today's on every seller the demo knows and on the awkward spellings.
    const names = (await k.selectFrom('income_invoices').select('seller_name').distinct().execute()).map((r) => r.seller_name);
    for (const n of [...names, '北京（首汽）出租汽车有限责任公司', 'ＡＢＣ停车场', ' 京沪高速·沧州收费站 ', '公司', '']) expect(frozenSellerKey(n)).toBe(sellerKey(n));
  });
});
