/**
 * Reading contracts (合同台账 and its detail): the filtered page, the export's batches, one contract with
 * its orders, what was invoiced on it and its history; the pickers' choices.
 */
import { sql, type Kysely, type SelectQueryBuilder } from 'kysely';
import type { TenderContractFilter, TenderContractQuery, TenderContractRow, TenderHistoryRow, TenderOption, TenderContractOptionsQuery, PageResult } from '@zhyy/shared';
import type { Database } from '../../../db/schema.js';
import { contains, offsetOf, sortOf } from '../../../platform/listing.js';
import { invoicedByContract } from '../../invoice/statistics/contracts.js';
import { missingPagesSql } from './pages.js';
import '../tables.js';

type Db = Kysely<Database>;
type From = Database & { c: Database['contracts']; p: Database['projects']; f: Database['contracts']; u: Database['users'] };

const base = (db: Db) =>
  db
    .selectFrom('contracts as c')
    .leftJoin('projects as p', 'p.id', 'c.project_id')
    .leftJoin('contracts as f', 'f.id', 'c.parent_id')
    .leftJoin('users as u', 'u.id', 'c.manager_id');

const COLUMNS = [
  'c.id', 'c.contract_type', 'c.code', 'c.name', 'c.customer', 'c.amount', 'c.project_id', 'p.code as project_code', 'p.name as project_name', 'c.parent_id',
  'f.code as frame_code', 'f.name as frame_name', 'c.manager_id', 'u.name as manager_name', 'c.signed_on', 'c.work_from', 'c.work_to', 'c.accepted_on', 'c.remark',
  'c.source', 'c.updated_at',
] as const;
const MISSING = missingPagesSql('c').as('missing_pages');

function applyFilters<O>(q: SelectQueryBuilder<From, 'c' | 'p' | 'f' | 'u', O>, f: TenderContractFilter) {
  let out = q.where('c.is_temp', '=', 0);
  const kw = f.keyword?.trim();
  if (kw) out = out.where((eb) => eb.or([contains(eb.ref('c.code'), kw), contains(eb.ref('c.name'), kw), contains(eb.ref('f.code'), kw)]));
  if (f.contractType) out = out.where('c.contract_type', '=', f.contractType);
  if (f.customer?.trim()) out = out.where((eb) => contains(eb.ref('c.customer'), f.customer!.trim()));
  if (f.projectId) out = out.where('c.project_id', '=', f.projectId);
  if (f.signedFrom) out = out.where('c.signed_on', '>=', f.signedFrom);
  if (f.signedTo) out = out.where('c.signed_on', '<=', f.signedTo);
  if (f.acceptedFrom) out = out.where('c.accepted_on', '>=', f.acceptedFrom);
  if (f.acceptedTo) out = out.where('c.accepted_on', '<=', f.acceptedTo);
  if (f.complete === 'complete') out = out.where(missingPagesSql('c'), '=', 0);
  if (f.complete === 'incomplete') out = out.where(missingPagesSql('c'), '>', 0);
  return out;
}

const SORTS = { code: 'c.code', name: 'c.name', amount: 'c.amount', signedOn: 'c.signed_on', acceptedOn: 'c.accepted_on', customer: 'c.customer', updatedAt: 'c.updated_at' } as const;

const sorted = <O>(q: SelectQueryBuilder<From, 'c' | 'p' | 'f' | 'u', O>, f: TenderContractQuery | TenderContractFilter) => {
  const s = sortOf('sort' in f ? f.sort : undefined, SORTS, { column: 'c.signed_on', order: 'desc' });
  return q.orderBy(s.column, s.order).orderBy('c.code').orderBy('c.id');
};

type Rec = { [K in 'id' | 'code' | 'name' | 'customer' | 'remark' | 'updated_at']: string } & {
  contract_type: number; amount: number | string; project_id: string | null; project_code: string | null; project_name: string | null; parent_id: string | null;
  frame_code: string | null; frame_name: string | null; manager_id: string | null; manager_name: string | null; signed_on: string | null; work_from: string | null;
  work_to: string | null; accepted_on: string | null; missing_pages: number | string; source: number;
};

export function toContractRow(r: Rec): TenderContractRow {
  return {
    id: r.id, contractType: Number(r.contract_type), code: r.code, name: r.name, customer: r.customer, amount: Number(r.amount), projectId: r.project_id, projectCode: r.project_code ?? '',
    projectName: r.project_name ?? '', frameId: r.parent_id, frameCode: r.frame_code ?? '', frameName: r.frame_name ?? '', managerId: r.manager_id, managerName: r.manager_name ?? '',
    signedOn: r.signed_on, workFrom: r.work_from, workTo: r.work_to, acceptedOn: r.accepted_on, remark: r.remark, missingPages: Number(r.missing_pages), source: Number(r.source),
    updatedAt: r.updated_at,
  };
}

export async function contractCount(db: Db, f: TenderContractFilter): Promise<number> {
  return Number((await applyFilters(base(db), f).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
}

export async function contractPage(db: Db, q: TenderContractQuery): Promise<PageResult<TenderContractRow>> {
  const [total, rows] = await Promise.all([contractCount(db, q), sorted(applyFilters(base(db).select([...COLUMNS, MISSING]), q), q).limit(q.pageSize).offset(offsetOf(q)).execute()]);
  return { total, items: rows.map(toContractRow) };
}

export async function* contractBatches(db: Db, f: TenderContractFilter, size = 1000): AsyncIterable<TenderContractRow[]> {
  for (let offset = 0; ; offset += size) {
    const rows = (await sorted(applyFilters(base(db).select([...COLUMNS, MISSING]), f), f).limit(size).offset(offset).execute()).map(toContractRow);
    if (rows.length) yield rows;
    if (rows.length < size) return;
  }
}

export async function contractById(db: Db, id: string): Promise<TenderContractRow | undefined> {
  const r = await base(db).select([...COLUMNS, MISSING]).where('c.id', '=', id).executeTakeFirst();
  return r ? toContractRow(r) : undefined;
}

export async function contractsWhere(db: Db, column: 'c.parent_id' | 'c.project_id', id: string): Promise<TenderContractRow[]> {
  return (await base(db).select([...COLUMNS, MISSING]).where(column, '=', id).orderBy('c.signed_on', 'desc').orderBy('c.code').limit(1000).execute()).map(toContractRow);
}

/** 已开票 on some contracts: the invoices in force, as 合同开票统计 counts them (invoice/statistics). */
export async function invoicedOn(db: Db, ids: readonly string[]): Promise<number> {
  if (!ids.length) return 0;
  const r = await db
    .selectFrom(invoicedByContract(db, { keyword: undefined }).as('s'))
    .select(sql<number>`coalesce(sum(s.invoiced), 0)`.as('n'))
    .where('s.target_id', 'in', [...ids])
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

/** The operation log rows recorded about one contract or project, newest first. */
export async function historyOf(db: Db, kind: 'contract' | 'project', id: string): Promise<TenderHistoryRow[]> {
  const rows = await db
    .selectFrom('operation_logs')
    .select(['id', 'type', 'description', 'user_name', 'login_name', 'created_at'])
    .where('record_kind', '=', kind)
    .where('record_id', '=', id)
    .orderBy('created_at', 'desc')
    .orderBy('id')
    .limit(200)
    .execute();
  return rows.map((r) => ({ id: r.id, type: r.type, description: r.description, userName: r.user_name, loginName: r.login_name, createdAt: r.created_at }));
}

/** Up to 50 contracts by code or name (the order editor's frame contracts: contractType 1). */
export async function contractOptions(db: Db, q: TenderContractOptionsQuery): Promise<TenderOption[]> {
  let s = db.selectFrom('contracts as c').select(['c.id', 'c.code', 'c.name']).where('c.is_temp', '=', 0);
  if (q.contractType) s = s.where('c.contract_type', '=', q.contractType);
  const kw = q.keyword?.trim();
  if (kw) s = s.where((eb) => eb.or([contains(eb.ref('c.code'), kw), contains(eb.ref('c.name'), kw)]));
  return s.orderBy('c.code').limit(50).execute();
}
