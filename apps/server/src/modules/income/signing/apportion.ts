/**
 * project/apportionment and project/change for incoming invoices, on their own tables
 * (income_allocations, income_allocation_changes) with the outgoing invoices' rules
 * (invoice/apportionment/rules.ts): each row's excluded + tax = included, no zero or negative rows,
 * one row per project, and the sums within 0.01 元 of the invoice; a move takes part of one allocation
 * (its tax in proportion) to another project. Every change records who, when, why, before and after,
 * in the same transaction. The set call may also name the invoice's department (dept/sign lists it
 * there): the projects reference data has no department, so the department is recorded here.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import { InvoiceColour, OperationLogType, type IncomeAllocationChangeRow, type IncomeAllocationMoveBody, type IncomeAllocationRow, type IncomeAllocationSetBody, type IncomeChangeQuery } from '@zhyy/shared';
import type { Database } from '../../../db/schema.js';
import { currentUser } from '../../../platform/context.js';
import { notFound, refuse } from '../../../platform/envelope.js';
import { newId } from '../../../platform/ids.js';
import { offsetOf } from '../../../platform/listing.js';
import { nowIso } from '../../../platform/time.js';
import { addTo, allocationProblems, partOf, yuan, type TargetAmounts } from '../../invoice/apportionment/rules.js';
import { addSignEvent } from './events.js';
import './tables.js';

type Db = Kysely<Database>;

async function names(db: Db, ids: readonly string[]): Promise<Map<string, string>> {
  if (!ids.length) return new Map();
  const rows = await db.selectFrom('projects').select(['id', 'name']).where('id', 'in', [...new Set(ids)]).execute();
  return new Map(rows.map((r) => [r.id, r.name]));
}

export async function allocationRows(db: Db, invoiceId: string): Promise<IncomeAllocationRow[]> {
  const rows = await db.selectFrom('income_allocations as a').leftJoin('projects as p', 'p.id', 'a.project_id').select(['a.id', 'a.project_id', 'p.name', 'a.amount_excl', 'a.tax', 'a.amount_incl', 'a.created_by_name', 'a.updated_at']).where('a.invoice_id', '=', invoiceId).orderBy('a.amount_incl', 'desc').orderBy('a.id').execute();
  return rows.map((r) => ({ id: r.id, projectId: r.project_id, projectName: r.name ?? '（已删除）', amountExcl: Number(r.amount_excl), tax: Number(r.tax), amountIncl: Number(r.amount_incl), createdByName: r.created_by_name, updatedAt: r.updated_at }));
}

const current = async (db: Db, invoiceId: string): Promise<TargetAmounts[]> =>
  (await allocationRows(db, invoiceId)).map((r) => ({ targetId: r.projectId, name: r.projectName, amountExcl: r.amountExcl, tax: r.tax, amountIncl: r.amountIncl }));

async function invoiceOf(trx: Db, id: string) {
  const inv = await trx.selectFrom('income_invoices').select(['id', 'digital_no', 'invoice_no', 'amount_excl', 'tax', 'amount_incl']).where('id', '=', id).executeTakeFirst();
  if (!inv) throw notFound('发票不存在');
  return inv;
}

interface Change {
  action: 'set' | 'move';
  from?: { id: string; name: string };
  to?: { id: string; name: string };
  amountIncl: number;
  reason: string;
}

async function store(trx: Db, req: FastifyRequest, inv: Awaited<ReturnType<typeof invoiceOf>>, before: TargetAmounts[], items: TargetAmounts[], c: Change): Promise<void> {
  const problems = allocationProblems({ colour: InvoiceColour.blue, status: 0, amountExcl: Number(inv.amount_excl), tax: Number(inv.tax), amountIncl: Number(inv.amount_incl) }, items, { redsByTarget: new Map(), dimLabel: '项目分摊' });
  if (problems.length) throw refuse(problems.join('；'));
  const user = currentUser(req);
  const now = nowIso();
  await trx.deleteFrom('income_allocations').where('invoice_id', '=', inv.id).execute();
  await trx
    .insertInto('income_allocations')
    .values(items.map((x) => ({ id: newId(), invoice_id: inv.id, project_id: x.targetId, amount_excl: x.amountExcl, tax: x.tax, amount_incl: x.amountIncl, created_by_name: user.name, created_at: now, updated_at: now })))
    .execute();
  const snap = (l: TargetAmounts[]) => JSON.stringify(l.map((x) => ({ projectId: x.targetId, name: x.name, amountIncl: x.amountIncl })));
  await trx
    .insertInto('income_allocation_changes')
    .values({
      id: newId(), invoice_id: inv.id, action: c.action, from_project_id: c.from?.id ?? null, to_project_id: c.to?.id ?? null, from_name: c.from?.name ?? '', to_name: c.to?.name ?? '',
      amount_incl: c.amountIncl, before: snap(before), after: snap(items), reason: c.reason, user_id: user.id, user_name: user.name, created_at: now,
    })
    .execute();
}

export async function setAllocations(app: FastifyInstance, req: FastifyRequest, b: IncomeAllocationSetBody): Promise<void> {
  const user = currentUser(req);
  await app.db.kysely.transaction().execute(async (trx) => {
    const inv = await invoiceOf(trx, b.invoiceId);
    const n = await names(trx, b.items.map((x) => x.projectId));
    if (b.items.some((x) => !n.has(x.projectId))) throw refuse('所选项目不存在');
    if (b.deptId) {
      const d = await trx.selectFrom('departments').select('id').where('id', '=', b.deptId).executeTakeFirst();
      if (!d) throw refuse('所选部门不存在');
      const now = nowIso();
      await trx.insertInto('income_invoice_depts').values({ invoice_id: inv.id, dept_id: b.deptId, updated_by_name: user.name, updated_at: now }).onConflict((oc) => oc.column('invoice_id').doUpdateSet({ dept_id: b.deptId!, updated_by_name: user.name, updated_at: now })).execute();
    }
    const items = b.items.map((x) => ({ targetId: x.projectId, name: n.get(x.projectId)!, amountExcl: x.amountExcl, tax: x.tax, amountIncl: x.amountIncl }));
    const before = await current(trx, inv.id);
    await store(trx, req, inv, before, items, { action: 'set', amountIncl: Number(inv.amount_incl), reason: b.reason });
    const desc = `进项发票 ${inv.digital_no || inv.invoice_no} 分摊到 ${items.map((x) => `${x.name} ${yuan(x.amountIncl)}元`).join('、')}（原因：${b.reason}）`;
    await addSignEvent(trx, inv.id, 'allocate', `项目分摊：${desc}`, user.name);
    await app.oplog.record(req, OperationLogType.edit, `进项项目分摊：${desc}`, trx);
  });
}

export async function moveAllocation(app: FastifyInstance, req: FastifyRequest, b: IncomeAllocationMoveBody): Promise<void> {
  const user = currentUser(req);
  await app.db.kysely.transaction().execute(async (trx) => {
    const a = await trx.selectFrom('income_allocations').selectAll().where('id', '=', b.allocationId).executeTakeFirst();
    if (!a) throw notFound('分摊记录不存在，可能已被他人变更，请刷新');
    if (a.project_id === b.toProjectId) throw refuse('变更后的项目与原项目相同');
    const inv = await invoiceOf(trx, a.invoice_id);
    const n = await names(trx, [b.toProjectId]);
    if (!n.has(b.toProjectId)) throw refuse('项目不存在');
    const before = await current(trx, inv.id);
    const from = before.find((x) => x.targetId === a.project_id)!;
    if (b.amountIncl > from.amountIncl) throw refuse(`变更金额 ${yuan(b.amountIncl)} 元超过该分摊的金额 ${yuan(from.amountIncl)} 元`);
    const part = partOf(from, b.amountIncl);
    const to = { id: b.toProjectId, name: n.get(b.toProjectId)! };
    const items = addTo(addTo(before, from.targetId, from.name, part, -1), to.id, to.name, part, 1);
    await store(trx, req, inv, before, items, { action: 'move', from: { id: from.targetId, name: from.name }, to, amountIncl: part.amountIncl, reason: b.reason });
    const desc = `进项发票 ${inv.digital_no || inv.invoice_no} 的 ${yuan(part.amountIncl)} 元由「${from.name}」变更到「${to.name}」（原因：${b.reason}）`;
    await addSignEvent(trx, inv.id, 'allocate', `项目变更：${desc}`, user.name);
    await app.oplog.record(req, OperationLogType.edit, `进项项目变更：${desc}`, trx);
  });
}

export async function changePage(db: Db, q: IncomeChangeQuery): Promise<{ items: IncomeAllocationChangeRow[]; total: number }> {
  let b = db.selectFrom('income_allocation_changes as c').innerJoin('income_invoices as p', 'p.id', 'c.invoice_id');
  if (q.invoiceId) b = b.where('c.invoice_id', '=', q.invoiceId);
  if (q.projectId) b = b.where((eb) => eb.or([eb('c.from_project_id', '=', q.projectId!), eb('c.to_project_id', '=', q.projectId!)]));
  const [rows, n] = await Promise.all([
    b.selectAll('c').select(['p.digital_no', 'p.invoice_no']).orderBy('c.created_at', 'desc').orderBy('c.id', 'desc').limit(q.pageSize).offset(offsetOf(q)).execute(),
    b.select(sql<number>`count(*)`.as('n')).executeTakeFirstOrThrow(),
  ]);
  return {
    items: rows.map((r) => ({
      id: r.id, invoiceId: r.invoice_id, invoiceNo: r.digital_no || r.invoice_no, action: r.action, fromName: r.from_name, toName: r.to_name, amountIncl: Number(r.amount_incl),
      before: JSON.parse(r.before), after: JSON.parse(r.after), reason: r.reason, userName: r.user_name, createdAt: r.created_at,
    })),
    total: Number(n.n),
  };
}
