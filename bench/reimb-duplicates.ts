/**
 * Benchmark of 疑似重复报销 (issue 32 #4) at 100,000 bills: a fresh database (SQLite file in a temporary folder,
 * or PostgreSQL with DATABASE_URL) migrated, filled with BILLS bills of 4 lines over a year (60 % with a pool
 * invoice of 3,000 sellers; the rest taxi receipts of 20 companies to the 分, tolls of 50 stations at 30 fixed
 * fares, 定额 parking of 10 car parks at 5/10/20 元, allowances without a seller), then the check's query
 * (`duplicateClaims` of apps/server/src/modules/reimbursement/apply/checks.ts, the code the server runs) for
 * RUNS lines picked at random, and the plan of one. Asserts nothing.
 *   npx tsx --conditions=source bench/reimb-duplicates.ts [bills=100000] [runs=2000]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { sql } from 'kysely';
import { sellerKey } from '@zhyy/shared';
import { migrate, openDatabase } from '../apps/server/src/db/index.js';
import { duplicateClaims } from '../apps/server/src/modules/reimbursement/apply/checks.js';

const BILLS = Number(process.argv[2] ?? 100_000);
const RUNS = Number(process.argv[3] ?? 2_000);
const dir = mkdtempSync(path.join(tmpdir(), 'reimb-dup-'));
// PostgreSQL: a schema of its own, dropped at the end.
const SCHEMA = 'bench_reimb_dup';
if (process.env.DATABASE_URL) {
  const admin = openDatabase({ databaseUrl: process.env.DATABASE_URL });
  await sql`drop schema if exists ${sql.raw(SCHEMA)} cascade`.execute(admin.kysely);
  await sql`create schema ${sql.raw(SCHEMA)}`.execute(admin.kysely);
  await admin.close();
}
const db = openDatabase({ databaseUrl: process.env.DATABASE_URL, sqlitePath: path.join(dir, 'bench.db'), pgSchema: process.env.DATABASE_URL ? SCHEMA : undefined });
await migrate(db);
const k = db.kysely;
// The applicants are not real users (a bench of the lines alone): references are not checked while loading.
await (db.dialect === 'sqlite' ? sql`pragma foreign_keys = off` : sql`set session_replication_role = replica`).execute(k);

let seed = 42;
const rnd = () => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31);
const pick = <T>(xs: readonly T[]) => xs[Math.floor(rnd() * xs.length)]!;
const day = (i: number) => new Date(Date.UTC(2025, 0, 1) + i * 86_400_000).toISOString().slice(0, 10);
const uuid = (kind: number, n: number) => `00000000-0000-4000-${String(8000 + kind)}-${String(n).padStart(12, '0')}`;
const sellers = Array.from({ length: 3000 }, (_, i) => `供应商${i}有限公司`);
const taxis = Array.from({ length: 20 }, (_, i) => `出租汽车${i}公司`);
const tolls = Array.from({ length: 50 }, (_, i) => `高速收费站${i}`);
const fares = Array.from({ length: 30 }, (_, i) => 500 + i * 500);
const parks = Array.from({ length: 10 }, (_, i) => `停车场${i}`);

const t0 = performance.now();
const bills: object[] = [];
const lines: object[] = [];
const flush = async () => {
  for (let i = 0; i < bills.length; i += 500) await k.insertInto('reimb_bills').values(bills.slice(i, i + 500) as never).execute();
  for (let i = 0; i < lines.length; i += 500) await k.insertInto('reimb_lines').values(lines.slice(i, i + 500) as never).execute();
  bills.length = 0;
  lines.length = 0;
};
const now = new Date().toISOString();
for (let b = 0; b < BILLS; b++) {
  const d = Math.floor((b / BILLS) * 365);
  const r = rnd();
  const flow = r < 0.9 ? 3 : r < 0.95 ? 1 : 0;
  bills.push({
    id: uuid(1, b), bill_no: `BX2025${String(b).padStart(6, '0')}`, applicant_id: uuid(3, b % 800), applicant_name: `员工${b % 800}`, dept_id: null, dept_name: '',
    project_id: null, project_name: '', contract_no: '', period_from: day(d), period_to: day(d), reason: '出差', payee_name: '', payee_bank: '', payee_account: '',
    flow_state: flow, work_id: null, reimb_state: flow === 3 ? 1 : null, amount: 0, approved_amount: 0, tax: 0, deductible_tax: 0, line_count: 4, acct_summary: '',
    cost_centre_code: '', cost_centre_name: '', voucher_id: '', voucher_no: '', voucher_period: '', voucher_date: '', push_message: '', push_claimed_until: null,
    pushed_at: null, pushed_by: '', submitted_at: now, approved_at: null, created_at: now, updated_at: now,
  });
  for (let n = 0; n < 4; n++) {
    const x = rnd();
    let seller = '';
    let amount = 0;
    let invoice: string | null = null;
    if (x < 0.6) [seller, amount, invoice] = [pick(sellers), 1_000 + Math.floor(rnd() * 200_000), uuid(4, b * 4 + n)];
    else if (x < 0.8) [seller, amount] = [pick(taxis), 1_500 + Math.floor(rnd() * 10_500)];
    else if (x < 0.9) [seller, amount] = [pick(tolls), pick(fares)];
    else if (x < 0.95) [seller, amount] = [pick(parks), pick([500, 1_000, 2_000])];
    else amount = pick([6_000, 8_000, 10_000]);
    lines.push({
      id: uuid(2, b * 4 + n), bill_id: uuid(1, b), line_no: n + 1, category_code: '0201', category_name: '市内交通', expense_date: day(Math.min(364, d + Math.floor(rnd() * 3))),
      description: '', city: '', nights: null, seat_class: '', amount, tax_rate: '0', tax: 0, approved_amount: null, approve_note: '', approved_by: '', deductible_tax: 0,
      invoice_id: invoice, invoice_number: '', subject_code: '', subject_name: '', checks: '[]', seller_name: seller, seller_key: sellerKey(seller),
    });
  }
  if (bills.length >= 2_000) await flush();
}
await flush();
await sql`analyze`.execute(k);
console.log(`${db.dialect}: ${BILLS} bills, ${BILLS * 4} lines loaded in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

const sample = await k.selectFrom('reimb_lines as l').innerJoin('reimb_bills as b', 'b.id', 'l.bill_id').select(['l.bill_id', 'b.applicant_id', 'l.category_code', 'l.expense_date', 'l.amount', 'l.invoice_id', 'l.seller_key']).where('l.line_no', '=', 1).limit(RUNS * 5).execute();
const times: number[] = [];
const bySeller: number[] = [];
let matches = 0;
for (let i = 0; i < RUNS; i++) {
  const l = sample[Math.floor(rnd() * sample.length)]!;
  const t = performance.now();
  const m = await duplicateClaims(k, l.bill_id, l.applicant_id, { categoryCode: l.category_code, travelKind: '', expenseDate: l.expense_date, city: '', nights: null, seatClass: '', amount: Number(l.amount), invoiceId: l.invoice_id, sellerKey: l.seller_key ?? '' });
  times.push(performance.now() - t);
  if (l.seller_key) bySeller.push(times[times.length - 1]!);
  matches += m.length;
}
times.sort((a, b) => a - b);
const q = (p: number) => times[Math.min(times.length - 1, Math.floor(p * times.length))]!.toFixed(2);
console.log(`duplicateClaims over ${RUNS} random lines: median ${q(0.5)} ms, p99 ${q(0.99)} ms, max ${q(1)} ms; ${matches} matches in all`);
bySeller.sort((a, b) => a - b);
console.log(`  of which ${bySeller.length} with a seller: median ${bySeller[Math.floor(bySeller.length / 2)]?.toFixed(2)} ms, p99 ${bySeller[Math.floor(bySeller.length * 0.99)]?.toFixed(2)} ms`);
const plan = db.dialect === 'sqlite'
  ? (await sql<{ detail: string }>`explain query plan select l.id from reimb_lines l join reimb_bills b on b.id = l.bill_id where l.seller_key = ${'停车场1'} and l.amount = ${1000} and l.expense_date >= ${'2025-06-01'} and l.expense_date <= ${'2025-06-07'} and b.flow_state in (1, 3)`.execute(k)).rows.map((r) => r.detail)
  : (await sql<{ 'QUERY PLAN': string }>`explain select l.id from reimb_lines l join reimb_bills b on b.id = l.bill_id where l.seller_key = ${'停车场1'} and l.amount = ${1000} and l.expense_date >= ${'2025-06-01'} and l.expense_date <= ${'2025-06-07'} and b.flow_state in (1, 3)`.execute(k)).rows.map((r) => r['QUERY PLAN']);
console.log(plan.join('\n'));
if (db.dialect === 'postgres') await sql`drop schema ${sql.raw(SCHEMA)} cascade`.execute(k);
await db.close();
rmSync(dir, { recursive: true, force: true });
