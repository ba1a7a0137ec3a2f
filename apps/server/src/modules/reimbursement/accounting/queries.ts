/**
 * Reading for 报销入账: the 一键报销 list (approved bills in 0 未报销 or 2 报销失败, with totals), the
 * badge count, the pushed bills 新增撤销 picks from, the revocation records (list and export) and the
 * accounting sync log (system 2: this area's exchanges only, by bill number, method name, status, time).
 */
import type { Kysely } from 'kysely';
import {
  REIMB_BILL_NO,
  ReimbFlowState,
  ReimbState,
  SyncSystem,
  reimbSyncMethodName,
  reimbSyncMethodsMatching,
  type PageResult,
  type ReimbApplyPage,
  type ReimbApplyQuery,
  type ReimbPushedQuery,
  type ReimbPushedRow,
  type ReimbRevocationRow,
  type ReimbRevokeExportQuery,
  type ReimbRevokeQuery,
  type ReimbSyncLogDetail,
  type ReimbSyncLogQuery,
  type ReimbSyncLogRow,
} from '@zhyy/shared';
import type { CountQuery } from '../../../db/counts.js';
import type { Database } from '../../../db/schema.js';
import { notFound } from '../../../platform/envelope.js';
import { contains, offsetOf, sortOf } from '../../../platform/listing.js';
import { syncExchange, syncRefsOf } from '../../../platform/synclog-list.js';
import { shanghaiDayStartIso } from '../../../platform/time.js';
import '../tables.js';

type Db = Kysely<Database>;
const PUSHABLE = [ReimbState.unReimburse, ReimbState.failed];

/** The badge 一键报销: approved bills waiting for the push (0 未报销 or 2 报销失败). */
export const reimbApplyCountQuery = (db: Db): CountQuery =>
  db.selectFrom('reimb_bills').select((eb) => eb.fn.countAll<number>().as('n')).where('flow_state', '=', ReimbFlowState.approved).where('reimb_state', 'in', PUSHABLE);

function applyBase(db: Db, q: Omit<ReimbApplyQuery, 'pageIndex' | 'pageSize' | 'sort'>) {
  let b = db.selectFrom('reimb_bills as b').where('b.flow_state', '=', ReimbFlowState.approved).where('b.reimb_state', 'in', q.state === undefined ? PUSHABLE : [q.state]);
  if (q.billNo) b = b.where((eb) => contains(eb.ref('b.bill_no'), q.billNo!));
  if (q.applicant) b = b.where((eb) => contains(eb.ref('b.applicant_name'), q.applicant!));
  if (q.deptId) b = b.where('b.dept_id', '=', q.deptId);
  if (q.from) b = b.where('b.approved_at', '>=', shanghaiDayStartIso(q.from));
  if (q.to) b = b.where('b.approved_at', '<', shanghaiDayStartIso(q.to, 1));
  return b;
}

const APPLY_SORTS = { billNo: 'b.bill_no', approvedAt: 'b.approved_at', approvedAmount: 'b.approved_amount', amount: 'b.amount', applicantName: 'b.applicant_name' } as const;

export async function applyPage(db: Db, q: ReimbApplyQuery): Promise<ReimbApplyPage> {
  const b = applyBase(db, q);
  const s = sortOf(q.sort, APPLY_SORTS, { column: 'b.approved_at', order: 'desc' });
  const [rows, sums] = await Promise.all([
    b.selectAll('b').orderBy(s.column, s.order).orderBy('b.bill_no', 'desc').limit(q.pageSize).offset(offsetOf(q)).execute(),
    b
      .select((eb) => [
        eb.fn.countAll<number>().as('n'),
        eb.fn.coalesce(eb.fn.sum<number>('b.amount'), eb.val(0)).as('amount'),
        eb.fn.coalesce(eb.fn.sum<number>('b.approved_amount'), eb.val(0)).as('approved'),
        eb.fn.coalesce(eb.fn.sum<number>('b.deductible_tax'), eb.val(0)).as('tax'),
      ])
      .executeTakeFirstOrThrow(),
  ]);
  return {
    items: rows.map((r) => ({
      id: r.id, billNo: r.bill_no, applicantName: r.applicant_name, deptName: r.dept_name, projectName: r.project_name, reason: r.reason,
      amount: Number(r.amount), approvedAmount: Number(r.approved_amount), deductibleTax: Number(r.deductible_tax), lineCount: r.line_count,
      reimbState: Number(r.reimb_state), pushMessage: r.push_message, approvedAt: r.approved_at, costCentreName: r.cost_centre_name,
    })),
    total: Number(sums.n),
    totals: { amount: Number(sums.amount), approvedAmount: Number(sums.approved), deductibleTax: Number(sums.tax) },
  };
}

/** 新增撤销: the bills in 1 已报销, by bill number or applicant. */
export async function pushedPage(db: Db, q: ReimbPushedQuery): Promise<PageResult<ReimbPushedRow>> {
  let b = db.selectFrom('reimb_bills as b').where('b.reimb_state', '=', ReimbState.success);
  if (q.keyword) b = b.where((eb) => eb.or([contains(eb.ref('b.bill_no'), q.keyword!), contains(eb.ref('b.applicant_name'), q.keyword!), contains(eb.ref('b.voucher_no'), q.keyword!)]));
  const [rows, n] = await Promise.all([
    b.selectAll('b').orderBy('b.pushed_at', 'desc').orderBy('b.bill_no', 'desc').limit(q.pageSize).offset(offsetOf(q)).execute(),
    b.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return {
    items: rows.map((r) => ({
      id: r.id, billNo: r.bill_no, applicantName: r.applicant_name, deptName: r.dept_name, reason: r.reason, approvedAmount: Number(r.approved_amount),
      voucherNo: r.voucher_no, voucherPeriod: r.voucher_period, voucherDate: r.voucher_date, pushedAt: r.pushed_at, pushedBy: r.pushed_by,
    })),
    total: Number(n.n),
  };
}

function revocationBase(db: Db, q: ReimbRevokeExportQuery) {
  let b = db.selectFrom('reimb_revocations as r').leftJoin('reimb_bills as b', 'b.id', 'r.bill_id');
  if (q.billNo) b = b.where((eb) => contains(eb.ref('r.bill_no'), q.billNo!));
  if (q.voucherNo) b = b.where((eb) => contains(eb.ref('r.voucher_no'), q.voucherNo!));
  if (q.state !== undefined) b = b.where('r.state', '=', q.state);
  if (q.method) b = b.where('r.method', '=', q.method);
  if (q.from) b = b.where('r.created_at', '>=', shanghaiDayStartIso(q.from));
  if (q.to) b = b.where('r.created_at', '<', shanghaiDayStartIso(q.to, 1));
  return b;
}

const REVOKE_SORTS = { createdAt: 'r.created_at', billNo: 'r.bill_no', state: 'r.state' } as const;
const revocationColumns = ['r.id', 'r.bill_id', 'r.bill_no', 'r.voucher_no', 'r.voucher_period', 'r.reason', 'r.state', 'r.message', 'r.requested_by_name', 'r.created_at', 'r.method', 'r.reversal_voucher_no', 'r.reversal_period', 'b.applicant_name', 'b.approved_amount'] as const;
type RevocationRecord = { id: string; bill_id: string; bill_no: string; voucher_no: string; voucher_period: string; reason: string; state: number; message: string; requested_by_name: string; created_at: string; method: string; reversal_voucher_no: string; reversal_period: string; applicant_name: string | null; approved_amount: number | null };
const toRevocation = (r: RevocationRecord): ReimbRevocationRow => ({
  id: r.id, billId: r.bill_id, billNo: r.bill_no, applicantName: r.applicant_name ?? '', approvedAmount: Number(r.approved_amount ?? 0), voucherNo: r.voucher_no, voucherPeriod: r.voucher_period,
  reason: r.reason, state: r.state, message: r.message, requestedByName: r.requested_by_name, createdAt: r.created_at,
  method: r.method, reversalVoucherNo: r.reversal_voucher_no, reversalPeriod: r.reversal_period,
});

export async function revocationPage(db: Db, q: ReimbRevokeQuery): Promise<PageResult<ReimbRevocationRow>> {
  const b = revocationBase(db, q);
  const s = sortOf(q.sort, REVOKE_SORTS, { column: 'r.created_at', order: 'desc' });
  const [rows, n] = await Promise.all([
    b.select([...revocationColumns]).orderBy(s.column, s.order).orderBy('r.id', 'desc').limit(q.pageSize).offset(offsetOf(q)).execute(),
    b.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { items: rows.map((r) => toRevocation(r as RevocationRecord)), total: Number(n.n) };
}

export async function revocationCount(db: Db, q: ReimbRevokeExportQuery): Promise<number> {
  const n = await revocationBase(db, q).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  return Number(n.n);
}

/** The export's rows, 500 at a time. */
export async function* revocationBatches(db: Db, q: ReimbRevokeExportQuery): AsyncGenerator<ReimbRevocationRow[]> {
  for (let offset = 0; ; offset += 500) {
    const rows = await revocationBase(db, q).select([...revocationColumns]).orderBy('r.created_at', 'desc').orderBy('r.id', 'desc').limit(500).offset(offset).execute();
    if (rows.length) yield rows.map((r) => toRevocation(r as RevocationRecord));
    if (rows.length < 500) return;
  }
}

/** The accounting system's exchanges; by bill means by the bill number (our voucher id, sync_log_refs). */
/**
 * 报销同步日志 (issue 31 #9): only this area's exchanges — those indexed by a bill's number, and the settings'
 * 连接测试 — never 签收's archive calls nor 进项转出's vouchers (the same system); the method filter takes the
 * Chinese name or the code; the keys shown are bill numbers and periods, never a voucher's internal id.
 */
export async function reimbSyncLogs(db: Db, q: ReimbSyncLogQuery): Promise<PageResult<ReimbSyncLogRow>> {
  const types = q.method ? reimbSyncMethodsMatching(q.method) : null;
  if (types && !types.length) return { items: [], total: 0 };
  let b = db
    .selectFrom('sync_logs as s')
    .leftJoin('users as u', 'u.id', 's.user_id')
    .where('s.system', '=', SyncSystem.accounting)
    .where('s.id', 'in', (eb) =>
      eb
        .selectFrom('sync_log_refs as r')
        .select('r.sync_log_id')
        .where((w) => w.or([w('r.ref', 'in', w.selectFrom('reimb_bills').select('bill_no')), w('r.ref', 'like', `${CONNECTION_TEST}%`)])),
    );
  if (q.billNo) b = b.where('s.id', 'in', db.selectFrom('sync_log_refs').select('sync_log_id').where('ref', '=', q.billNo));
  if (types) b = b.where('s.type', 'in', types);
  if (q.status !== undefined) b = b.where('s.status', '=', q.status);
  if (q.from) b = b.where('s.created_at', '>=', q.from);
  if (q.to) b = b.where('s.created_at', '<', q.to);
  const s = sortOf(q.sort, SYNC_SORTS, { column: 's.created_at', order: 'desc' });
  const [rows, n] = await Promise.all([
    b.select(['s.id', 's.type', 's.status', 's.memo', 's.duration_ms', 's.created_at', 'u.name as user_name']).orderBy(s.column, s.order).orderBy('s.id', 'desc').limit(q.pageSize).offset(offsetOf(q)).execute(),
    b.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  const refs = await syncRefsOf(db, rows.map((r) => r.id));
  return {
    items: rows.map((r) => ({ id: r.id, type: r.type, typeName: reimbSyncMethodName(r.type), status: r.status, memo: r.memo, durationMs: r.duration_ms, userName: r.user_name ?? '系统', createdAt: r.created_at, refs: shownRefs(refs.get(r.id)) })),
    total: Number(n.n),
  };
}

const CONNECTION_TEST = 'connection-test-';
const SYNC_SORTS = { createdAt: 's.created_at', status: 's.status', durationMs: 's.duration_ms' } as const;
/** The keys a user reads: bill numbers, periods (2026年05月), 连接测试; a voucher's internal id is left out. */
const shownRefs = (refs: readonly string[] | undefined): string[] =>
  (refs ?? []).flatMap((r) => (REIMB_BILL_NO.test(r) ? [r] : /^\d{6}$/.test(r) ? [`${r.slice(0, 4)}年${r.slice(4)}月`] : r.startsWith(CONNECTION_TEST) ? ['连接测试'] : []));

export async function reimbSyncLogDetail(db: Db, id: string): Promise<ReimbSyncLogDetail> {
  const r = await syncExchange(db, SyncSystem.accounting, id);
  if (!r) throw notFound('同步记录不存在');
  const refs = await syncRefsOf(db, [id]);
  return { id: r.id, type: r.type, typeName: reimbSyncMethodName(r.type), status: r.status, memo: r.memo, durationMs: r.duration_ms, userName: r.user_name ?? '系统', createdAt: r.created_at, refs: shownRefs(refs.get(id)), request: r.request, response: r.response };
}
