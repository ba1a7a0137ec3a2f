/** Lookups of the entry form: projects, contracts (reference tables) and the tax classification codes. */
import type { Kysely } from 'kysely';
import { ReimbFlowState, type ReferenceRow, type TaxCodeRow } from '@zhyy/shared';
import type { Database } from '../../db/schema.js';
import { refuse } from '../../platform/envelope.js';
import { contains } from '../../platform/listing.js';
import '../reimbursement/tables.js';

const LIMIT = 50;

export async function findProjects(db: Kysely<Database>, q: { keyword?: string; customer?: string }): Promise<ReferenceRow[]> {
  let s = db.selectFrom('projects').selectAll();
  if (q.keyword) s = s.where((eb) => eb.or([contains(eb.ref('name'), q.keyword!), contains(eb.ref('code'), q.keyword!)]));
  if (q.customer) s = s.where((eb) => contains(eb.ref('customer'), q.customer!));
  const rows = await s.orderBy('code', 'desc').limit(LIMIT).execute();
  return rows.map((r) => ({ id: r.id, code: r.code, name: r.name, customer: r.customer, amount: Number(r.amount), source: r.source }));
}

export async function findContracts(db: Kysely<Database>, q: { keyword?: string; customer?: string; projectId?: string }): Promise<ReferenceRow[]> {
  let s = db.selectFrom('contracts').selectAll();
  if (q.keyword) s = s.where((eb) => eb.or([contains(eb.ref('name'), q.keyword!), contains(eb.ref('code'), q.keyword!)]));
  if (q.customer) s = s.where((eb) => contains(eb.ref('customer'), q.customer!));
  if (q.projectId) s = s.where('project_id', '=', q.projectId);
  const rows = await s.orderBy('code', 'desc').limit(LIMIT).execute();
  return rows.map((r) => ({ id: r.id, code: r.code, name: r.name, customer: r.customer, amount: Number(r.amount), source: r.source, projectId: r.project_id }));
}

export async function findTaxCodes(db: Kysely<Database>, keyword?: string): Promise<TaxCodeRow[]> {
  let s = db.selectFrom('invoice_tax_codes').selectAll();
  if (keyword) s = s.where((eb) => eb.or([contains(eb.ref('name'), keyword), contains(eb.ref('short_name'), keyword), contains(eb.ref('code'), keyword)]));
  const rows = await s.orderBy('sort').orderBy('code').limit(LIMIT).execute();
  return rows.map((r) => ({ code: r.code, name: r.name, shortName: r.short_name, taxRate: r.tax_rate, policy: r.policy }));
}

/**
 * The one check of a reference a clerk types or picks (issue 27): a 报销单, 合同 or 项目 must name an
 * existing record in a state that accepts it, else a Chinese refusal naming the reference. Used by 发票签收
 * (the document number typed), the cost order's project, and wherever a project or contract is chosen.
 * - 报销单 (reimb_bills.bill_no): submitted, i.e. 审批中 or 已通过; a draft or a returned bill is refused.
 * - 合同 / 项目 (contracts / projects, by code or id): a temporary one (临时项目/合同, waiting to be matched
 *   to the real one) is refused unless `allowTemp` (apportionment may name one until it is matched).
 */
export type ReferenceKind = 'reimbursement' | 'contract' | 'project';
export interface ReferenceFound {
  id: string;
  code: string;
  name: string;
}

const KIND_LABEL: Record<ReferenceKind, string> = { reimbursement: '报销单', contract: '合同', project: '项目' };

export async function referenceOrRefuse(db: Kysely<Database>, kind: ReferenceKind, by: { code: string } | { id: string }, opts: { allowTemp?: boolean } = {}): Promise<ReferenceFound> {
  const label = KIND_LABEL[kind];
  const named = 'code' in by ? `${label} ${by.code}` : `所选${label}`;
  if (kind === 'reimbursement') {
    let q = db.selectFrom('reimb_bills').select(['id', 'bill_no', 'reason', 'flow_state']);
    q = 'code' in by ? q.where('bill_no', '=', by.code) : q.where('id', '=', by.id);
    const b = await q.executeTakeFirst();
    if (!b) throw refuse(`${named} 不存在，请核对${label}号`);
    if (b.flow_state === ReimbFlowState.draft) throw refuse(`报销单 ${b.bill_no} 尚未提交审批，不能使用`);
    if (b.flow_state === ReimbFlowState.returned) throw refuse(`报销单 ${b.bill_no} 已退回申请人，不能使用`);
    return { id: b.id, code: b.bill_no, name: b.reason };
  }
  const table = kind === 'contract' ? 'contracts' : 'projects';
  let q = db.selectFrom(table).select(['id', 'code', 'name', 'is_temp']);
  q = 'code' in by ? q.where('code', '=', by.code) : q.where('id', '=', by.id);
  const r = await q.executeTakeFirst();
  if (!r) throw refuse('code' in by ? `${named} 不存在，请核对${label}编号` : `${named}不存在`);
  if (r.is_temp === 1 && !opts.allowTemp) throw refuse(`${label} ${r.code}（${r.name}）为临时${label}，请先匹配正式${label}后再使用`);
  return { id: r.id, code: r.code, name: r.name };
}
