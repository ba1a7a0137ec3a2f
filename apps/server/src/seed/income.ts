/**
 * The demo company's incoming-invoice pool (issue 13, "Demo data and scale"): twelve months of incoming
 * invoices up to the demo's day, 60 a day (21,600, about 1,800 a month), with their lines, from the
 * suppliers of incomeData.ts (subcontractors 9 %, materials 13 %, design 6 %, simplified 3 %, fuel,
 * hotels, rail, air and road tickets, tolls, a few customs notes and withholding certificates).
 *
 * - Most older invoices are signed and archived as signing/service.ts leaves them: a signing record
 *   (signed), the usage lock of the signing (kept for a reimbursement, a project or 其他, closed for a
 *   contract), the pool's history (arrival, lock, [close,] sign), booked once their month is over, and an
 *   archive number GD{yyyyMM}{seq} of the signing's Asia/Shanghai month, numbered gap-free in signing
 *   order, with each month's counter row (income_archive_counters) at its last number, so a signing in
 *   the demo continues the sequence.
 * - Recent ones wait (unsigned, available); a few failed at the archive side (a failed signing record,
 *   the lock released) and wait to be signed again.
 * - A handful are abnormal: voided, red-reversed (全额, 部分), red confirmation pending, 失控, 异常凭证,
 *   疑点, buyer not ours, a duplicate paper copy, a verification mismatch.
 *
 * Written in multi-row inserts (seed/bulk.ts).
 */
import { raiseAll } from '../modules/income/abnormal/raise.js';
import {
  IncomeBookingState, IncomeInvoiceState, IncomeRiskLevel, IncomeSignDocType, IncomeSignState, IncomeSource, IncomeUsage, IncomeUseKind, IncomeVerifyState,
} from '@zhyy/shared';
import { shanghaiMonth } from '../modules/income/signing/archive-no.js';
import type { Insertable } from 'kysely';
import type { IncomeArchiveCounterTable, IncomeSigningTable } from '../modules/income/signing/tables.js';
import type { IncomeEventTable, IncomeInvoiceTable, IncomeLineTable, IncomeLockTable } from '../modules/income/pool/tables.js';
import { transportFacts, type TransportFacts } from '../modules/income/transport/facts.js';
import { bulkInsert } from './bulk.js';
import { seedTicks, tickDemo, type TickDemo } from './income-ticks.js';
import type { DemoUser } from './company.js';
import type { SeedContext } from './context.js';
import { drawIncome, INCOME_SUPPLIERS, incomeRowId as rowId, OTHER_BUYER, shanghaiDayBefore, type Supplier } from './incomeData.js';
import { PROJECTS } from './invoiceData.js';
import { Rng } from './rng.js';

/** 60 invoices a day over the 360 days up to the demo's day: 21,600, about 1,800 a month. */
export const INCOME_DEMO_DAYS = 360;
export const INCOME_DEMO_PER_DAY = 60;
/**
 * Ids of the generated rows: a UUID-shaped number (version nibble 8, never a v5 demoId's or a v7 newId's),
 * one prefix per table; hashing 150,000 names (uuid v5) would cost more than inserting the rows.
 */
const T = { invoice: 0x9001, line: 0x9002, event: 0x9003, lock: 0x9004, signing: 0x9005 } as const;
const supplierOf = (category: string) => INCOME_SUPPLIERS.find(([s]) => s.category === category)![0];
const CUSTOMS = supplierOf('customs');
const WITHHOLDING = supplierOf('withholding');
const SEED = 20261313;
const DAY_MS = 86_400_000;
const pad = (n: number, w: number) => String(n).padStart(w, '0');

export interface IncomeDemo {
  invoices: IncomeInvoiceTable[];
  lines: IncomeLineTable[];
  events: IncomeEventTable[];
  locks: IncomeLockTable[];
  signings: Insertable<IncomeSigningTable>[];
  counters: IncomeArchiveCounterTable[];
  /** The passenger transport documents' facts (migration 0025, modules/income/transport/facts.ts). */
  transport: TransportFacts[];
}

interface Pending {
  i: number;
  row: IncomeInvoiceTable;
  supplier: Supplier;
  back: number;
  arrivedMs: number;
}

const iso = (ms: number) => new Date(ms).toISOString();
const ymd = (ms: number) => new Date(ms + 8 * 3600_000).toISOString().slice(0, 10).replaceAll('-', '');

/** Who signs: the incoming-invoice accountants (roles 13 and 14) of the demo company. */
const signersOf = (users: DemoUser[]) => {
  const s = users.filter((u) => u.roles.includes('13') || u.roles.includes('14'));
  return s.length ? s : users.slice(0, 1);
};

/** The demo pool's rows for the day `now` (pure: the same `now` and users give the same rows). */
export function incomeDemo(now: Date, users: DemoUser[], perDay = INCOME_DEMO_PER_DAY): IncomeDemo {
  const rng = new Rng(SEED);
  const nowMs = now.getTime();
  const signers = signersOf(users);
  const out: IncomeDemo = { invoices: [], lines: [], events: [], locks: [], signings: [], counters: [], transport: [] };
  const all: Pending[] = [];
  let i = 0;
  for (let back = INCOME_DEMO_DAYS - 1; back >= 0; back--) {
    const issueDate = shanghaiDayBefore(now, back);
    // Midnight of the issue day in Shanghai, as an instant.
    const dayStart = Date.parse(`${issueDate}T00:00:00+08:00`);
    for (let j = 0; j < perDay; j++, i++) {
      // Arrived (collected, uploaded, scanned, entered) from the issue day to three days later, never after now.
      const arrivedMs = Math.min(nowMs - 60_000 * (perDay - j), dayStart + 8 * 3600_000 + rng.int(0, 3 * 86_400) * 1000);
      const at = iso(arrivedMs);
      const id = rowId(T.invoice, i);
      // Every 180th a customs note or a withholding certificate (a few a month), the others by the suppliers' weights.
      const rare = i % 180 === 37 ? CUSTOMS : i % 180 === 113 ? WITHHOLDING : undefined;
      const d = drawIncome(rng, i, '9', { id, lineId: (k) => rowId(T.line, i * 4 + k), issueDate, at, maxLines: 3, ...(rare ? { supplier: rare } : {}) });
      const verifiable = !['road', 'customs', 'withholding'].includes(d.row.kind);
      if (back > 2 && verifiable) {
        const verifiedAt = iso(Math.min(nowMs - 30_000, arrivedMs + rng.int(600, 86_400) * 1000));
        // A paper rail ticket or itinerary (no 20-digit number) cannot be 查验'd; the draw is kept so the demo stays as it was.
        if (!((d.row.kind === 'rail' || d.row.kind === 'air') && !d.row.digital_no)) Object.assign(d.row, { verify_state: IncomeVerifyState.match, verified_at: verifiedAt });
      }
      all.push({ i, row: d.row, supplier: d.supplier, back, arrivedMs });
      out.invoices.push(d.row);
      out.lines.push(...d.lines);
      out.events.push({ id: rowId(T.event, i * 8), invoice_id: id, kind: 'arrive', message: `${IncomeSource.label(d.row.source)}进入票池`, user_name: '', created_at: at });
    }
  }
  const taken = new Set<number>();
  const pick = (keep: (p: Pending) => boolean): Pending | null => {
    for (let tries = 0; tries < 100_000; tries++) {
      const p = all[rng.int(0, all.length - 1)]!;
      if (!taken.has(p.i) && keep(p)) {
        taken.add(p.i);
        return p;
      }
    }
    return null;
  };
  const older = (days: number) => (p: Pending) => p.back > days && !['rail', 'air', 'road', 'customs', 'withholding'].includes(p.row.kind);

  // The abnormal handful (异常票池): each flag a few times.
  const S = IncomeInvoiceState;
  const abnormal: Array<[number, (p: Pending) => void, (p: Pending) => boolean]> = [
    [5, (p) => (p.row.invoice_state = S.voided), (p) => older(5)(p) && ['01', '04', '14'].includes(p.row.kind)],
    [4, (p) => (p.row.invoice_state = S.fullRed), older(10)],
    [3, (p) => (p.row.invoice_state = S.partRed), older(10)],
    [2, (p) => (p.row.invoice_state = S.red), older(10)],
    [3, (p) => (p.row.red_pending = 1), older(5)],
    [4, (p) => (p.row.invoice_state = S.lostControl), older(20)],
    [6, (p) => (p.row.risk_level = IncomeRiskLevel.abnormalVoucher), older(15)],
    [5, (p) => (p.row.risk_level = IncomeRiskLevel.suspicious), older(10)],
    [5, (p) => Object.assign(p.row, { buyer_name: OTHER_BUYER.name, buyer_tax_no: OTHER_BUYER.taxNo, buyer_mismatch: 1 }), older(3)],
    [4, (p) => (p.row.verify_state = IncomeVerifyState.mismatch), (p) => older(5)(p) && p.row.verify_state === IncomeVerifyState.match],
  ];
  for (const [n, apply, keep] of abnormal) {
    for (let k = 0; k < n; k++) {
      const p = pick(keep);
      if (p) apply(p);
    }
  }
  // Paper copies entered again under another number: same seller, day and total as another invoice (疑似重复).
  for (let k = 0; k < 3; k++) {
    const orig = pick(older(5));
    const copy = pick((p) => older(5)(p) && p.row.kind === '01');
    if (!orig || !copy) continue;
    Object.assign(copy.row, { seller_name: orig.row.seller_name, seller_tax_no: orig.row.seller_tax_no, issue_date: orig.row.issue_date, amount_excl: orig.row.amount_excl, tax: orig.row.tax, amount_incl: orig.row.amount_incl, duplicate_of: orig.row.id });
    const lines = out.lines.filter((l) => l.invoice_id === copy.row.id);
    lines.forEach((l, k2) => Object.assign(l, k2 === 0 ? { amount: orig.row.amount_excl, tax: orig.row.tax, unit_price: (orig.row.amount_excl / 100 / Number(l.quantity)).toFixed(2) } : { amount: 0, tax: 0, unit_price: '0.00' }));
    out.lines.splice(0, out.lines.length, ...out.lines.filter((l) => l.invoice_id !== copy.row.id || l.line_no === 1));
  }

  // Each invoice's events and locks numbered by slot (0 is the arrival).
  const SLOT = { bx: 1, 'lock-failed': 2, 'release-failed': 3, 'sign-failed': 4, lock: 5, close: 6, sign: 7, failed: 2 } as const;
  const event = (p: Pending, key: Exclude<keyof typeof SLOT, 'failed'>, kind: string, message: string, user: string, ms: number) =>
    out.events.push({ id: rowId(T.event, p.i * 8 + SLOT[key]), invoice_id: p.row.id, kind, message, user_name: user, created_at: iso(ms) });
  const lockRow = (p: Pending, key: 'bx' | 'failed' | 'sign', useKind: string, docNo: string, state: 'locked' | 'closed' | 'released', ms: number, endMs: number | null) =>
    out.locks.push({ id: rowId(T.lock, p.i * 4 + { bx: 0, failed: 1, sign: 2 }[key]), invoice_id: p.row.id, use_kind: useKind, doc_no: docNo, state, active: state === 'released' ? null : 1, created_at: iso(ms), ended_at: endMs === null ? null : iso(endMs) });

  // The reimbursement numbers typed at signing (paper bills, before the platform's own 费用报销).
  const bx = new Map<string, number>();
  const bxNo = (ms: number) => {
    const m = shanghaiMonth(new Date(ms));
    bx.set(m, (bx.get(m) ?? 0) + 1);
    return `BX${m}-${pad(bx.get(m)!, 4)}`;
  };
  // Kept out of signing: tickets, fuel and hotels of the last weeks, which the demo reimbursements
  // (seed/reimbursement.ts) would hold. They stay available here: a lock names a real bill, and the
  // reimbursement seed makes its own invoices. The draws stay, so the rest of the pool is unchanged.
  for (let k = 0; k < Math.max(5, Math.round((40 * perDay) / INCOME_DEMO_PER_DAY)); k++) {
    const p = pick((q) => q.back > 3 && q.back <= 40 && ['rail', 'air', 'road', 'fuel', 'hotel', 'toll'].includes(q.supplier.category) && q.row.invoice_state === S.normal);
    if (!p) break;
    rng.int(1, 3);
  }

  // Signing: the older the invoice, the likelier it is signed; a few attempts failed at the archive side.
  const signed: Array<{ p: Pending; ms: number; docType: string; docNo: string; note: string; who: DemoUser }> = [];
  const months = new Map<string, number>();
  for (const p of all) {
    const r = p.row;
    if (taken.has(p.i) || r.buyer_mismatch || r.duplicate_of || r.invoice_state !== S.normal || r.red_pending || r.risk_level === IncomeRiskLevel.abnormalVoucher) continue;
    const chance = p.back > 60 ? 0.92 : p.back > 30 ? 0.75 : p.back > 10 ? 0.4 : p.back > 3 ? 0.12 : 0;
    const u = rng.next();
    const who = signers[rng.int(0, signers.length - 1)]!;
    const ms = Math.min(nowMs - 3600_000, p.arrivedMs + rng.int(1, Math.max(1, Math.min(p.back - 1, 20))) * DAY_MS + rng.int(0, 8 * 3600) * 1000);
    if (u >= chance) {
      if (p.back > 3 && p.back <= 30 && u < chance + 0.01) {
        // Failed at the archive side: the record says why, the lock was released, the invoice waits again.
        const docNo = bxNo(ms);
        r.sign_state = IncomeSignState.failed;
        out.signings.push({ id: rowId(T.signing, p.i * 2 + 1), invoice_id: r.id, doc_type: 'reimbursement', doc_no: docNo, note: '', state: 'failed', archive_no: '', voucher_id: '', fail_reason: '档案系统繁忙，请稍后重试', user_id: who.id, user_name: who.name, created_at: iso(ms - 3000), finished_at: iso(ms) });
        lockRow(p, 'failed', 'sign', docNo, 'released', ms - 3000, ms);
        event(p, 'lock-failed', 'lock', `被${IncomeUseKind.label('sign')} ${docNo} 占用`, who.name, ms - 3000);
        event(p, 'release-failed', 'release', `${IncomeUseKind.label('sign')} ${docNo} 释放了发票`, who.name, ms - 1000);
        event(p, 'sign-failed', 'sign-failed', `签收失败（${IncomeSignDocType.label('reimbursement')} ${docNo}）：档案系统繁忙，请稍后重试`, who.name, ms);
      }
      continue;
    }
    const c = p.supplier.category;
    const month = shanghaiMonth(new Date(ms));
    let docType: string;
    let docNo: string;
    let note = '';
    if (c === 'construction' || c === 'materials') {
      docType = 'contract';
      docNo = `HT${r.issue_date.slice(0, 4)}-${pad(1 + (p.supplier.taxNo.charCodeAt(10) % 40), 3)}`;
    } else if (c === 'design') {
      docType = 'project';
      docNo = PROJECTS[p.i % PROJECTS.length]!.code;
    } else if (c === 'customs' || c === 'withholding') {
      docType = 'other';
      docNo = `QS${ymd(ms)}-${pad(p.i, 6)}`;
      note = c === 'customs' ? '进口设备海关缴款书归档' : '代扣代缴完税凭证归档';
    } else {
      docType = 'reimbursement';
      docNo = bxNo(ms);
    }
    months.set(month, 0);
    signed.push({ p, ms, docType, docNo, note, who });
  }
  // Archive numbers in signing order, gap-free within each month; each month's counter at its last number.
  signed.sort((a, b) => a.ms - b.ms || a.p.i - b.p.i);
  const currentMonth = shanghaiMonth(now);
  for (const s of signed) {
    const { p, ms, docType, docNo, note, who } = s;
    const month = shanghaiMonth(new Date(ms));
    const seq = months.get(month)! + 1;
    months.set(month, seq);
    const archiveNo = `GD${month}${pad(seq, 4)}`;
    const voucherId = `SIMV${ymd(ms)}${pad(p.i, 10)}`;
    const contract = docType === 'contract';
    Object.assign(p.row, {
      sign_state: IncomeSignState.signed, archive_no: archiveNo, usage: contract ? IncomeUsage.closed : IncomeUsage.locked, use_kind: 'sign', doc_no: docNo,
      booking_state: month < currentMonth ? (p.i % 20 === 0 ? IncomeBookingState.bookedNoDeduct : IncomeBookingState.bookedDeduct) : IncomeBookingState.none,
      // 入账日期: the first working morning after the signing's month (10:00 Asia/Shanghai on the 1st).
      booked_at: month < currentMonth ? new Date(Date.UTC(Number(month.slice(0, 4)), Number(month.slice(4, 6)), 1, 2)).toISOString() : null,
      updated_at: iso(ms),
    });
    out.signings.push({ id: rowId(T.signing, p.i * 2), invoice_id: p.row.id, doc_type: docType, doc_no: docNo, note, state: 'signed', archive_no: archiveNo, voucher_id: voucherId, fail_reason: '', user_id: who.id, user_name: who.name, created_at: iso(ms - 3000), finished_at: iso(ms) });
    lockRow(p, 'sign', 'sign', docNo, contract ? 'closed' : 'locked', ms - 3000, contract ? ms : null);
    const label = `${IncomeSignDocType.label(docType)} ${docNo}`;
    event(p, 'lock', 'lock', `被${IncomeUseKind.label('sign')} ${docNo} 占用`, who.name, ms - 3000);
    if (contract) event(p, 'close', 'close', `${IncomeUseKind.label('sign')} ${docNo} 完成使用（已关闭）`, who.name, ms - 1);
    event(p, 'sign', 'sign', `签收归档（${label}），档案号 ${archiveNo}，凭证号 ${voucherId}`, who.name, ms);
  }
  out.counters = [...months].filter(([, seq]) => seq > 0).map(([month, seq]) => ({ month, seq }));
  out.transport = transportOf(out.invoices, out.lines);
  return out;
}

/** The demo pool; `ctx.incomePerDay` (test servers) draws the same twelve months at a lower daily volume. */
export async function seedIncome(ctx: SeedContext): Promise<void> {
  const d = incomeDemo(ctx.now, ctx.users, ctx.incomePerDay ?? INCOME_DEMO_PER_DAY);
  const ticks = tickDemo(d.invoices, ctx.now, ctx.users);
  abnormalAfterTicking(d.invoices, ticks);
  await bulkInsert(ctx.db, 'income_invoices', d.invoices);
  await bulkInsert(ctx.db, 'income_invoice_lines', d.lines);
  await bulkInsert(ctx.db, 'income_events', d.events);
  await bulkInsert(ctx.db, 'income_locks', d.locks);
  await bulkInsert(ctx.db, 'income_signings', d.signings);
  await bulkInsert(ctx.db, 'income_archive_counters', d.counters);
  await bulkInsert(ctx.db, 'income_transport', d.transport);
  await seedTicks(ctx.db, ticks);
  // The abnormal worklist: one open case per flag of every flagged invoice, with its owner.
  await raiseAll(ctx.db);
  // Their age: from the invoice's arrival (a flag of the demo was there from the start, or soon after).
  await ctx.db
    .updateTable('income_abnormal_cases')
    .set((eb) => ({ raised_at: eb.selectFrom('income_invoices').select('income_invoices.created_at').whereRef('income_invoices.id', '=', 'income_abnormal_cases.invoice_id') }))
    .execute();
}

/**
 * Flags that appear after ticking or signing (the worklist's harder cases): two invoices ticked for
 * deduction became 异常凭证 and one 失控 (ready for 进项转出), and two signed invoices went into 红字确认中
 * (their signing is flagged and the signer notified when the case is raised).
 */
function abnormalAfterTicking(invoices: IncomeInvoiceTable[], ticks: TickDemo): void {
  const clean = (r: IncomeInvoiceTable) => r.invoice_state === 0 && !r.red_pending && r.risk_level === '01' && !r.buyer_mismatch && r.duplicate_of === null && r.verify_state === 1;
  // Deducted in a past period (the current period's ticks stay as they are: the ticking demo undoes one).
  const current = invoices.reduce((m, r) => (r.tick_period && r.tick_period > m ? r.tick_period : m), '');
  const deducted = invoices.filter((r) => clean(r) && r.tick_state === 1 && r.vat_usage === 1 && r.tick_period !== current).sort((a, b) => b.issue_date.localeCompare(a.issue_date));
  const known = (r: IncomeInvoiceTable) => ticks.known.find((k) => k.invoice_key === (r.digital_no || `${r.invoice_code}${r.invoice_no}`));
  deducted.slice(0, 2).forEach((r) => {
    r.risk_level = '02';
    const k = known(r);
    if (k) k.risk_level = '02';
  });
  deducted.slice(2, 3).forEach((r) => {
    r.invoice_state = 1;
    const k = known(r);
    if (k) k.invoice_state = 1;
  });
  invoices.filter((r) => clean(r) && r.sign_state === 1 && r.tick_state !== 1).slice(0, 2).forEach((r) => (r.red_pending = 1));
}

/** The facts of the passenger transport documents among `invoices` (their lines from `lines`). */
export function transportOf(invoices: IncomeInvoiceTable[], lines: IncomeLineTable[]): TransportFacts[] {
  const byInvoice = new Map<string, IncomeLineTable[]>();
  for (const l of lines) byInvoice.set(l.invoice_id, [...(byInvoice.get(l.invoice_id) ?? []), l]);
  return invoices
    .map((r) => transportFacts({ invoiceId: r.id, kind: r.kind, amountIncl: r.amount_incl, tax: r.tax, remark: r.remark, lines: byInvoice.get(r.id) ?? [] }))
    .filter((f) => f !== null);
}
