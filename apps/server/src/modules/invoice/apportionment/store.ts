/**
 * Reading and writing allocations: an invoice's allocations on one dimension with the targets'
 * names, what its red invoices take, the replacement of a set (with its change row), and the
 * default allocation an invoice gets when it becomes created (2) — `allocateOnCreated`, called by
 * the issuing service inside the transaction that records the result — or later by `backfillAllocations`.
 */
import type { Kysely } from 'kysely';
import { InvoiceColour, InvoiceStatus, type AllocationDim, type AllocationSnapshot } from '@zhyy/shared';
import type { Database } from '../../../db/schema.js';
import { newId } from '../../../platform/ids.js';
import { nowIso } from '../../../platform/time.js';
import { splitProportionally, type TargetAmounts } from './rules.js';
import './tables.js';

export type Db = Kysely<Database>;
export interface Actor {
  id: string | null;
  name: string;
}
export const SYSTEM: Actor = { id: null, name: '系统' };

export const targetTable = (dim: AllocationDim) => (dim === 'project' ? 'projects' : 'contracts');
export const dimLabel = (dim: AllocationDim) => (dim === 'project' ? '项目分摊' : '订单分摊');

export async function loadInvoice(db: Db, id: string) {
  return db.selectFrom('invoices').select(['id', 'colour', 'status', 'kind', 'amount_excl', 'tax', 'amount_incl', 'issue_date', 'blue_invoice_id', 'project_id', 'contract_id', 'invoice_no', 'digital_no', 'order_no']).where('id', '=', id).executeTakeFirst();
}
export type InvoiceHead = NonNullable<Awaited<ReturnType<typeof loadInvoice>>>;

export const invoiceNumber = (i: { digital_no: string; invoice_no: string; order_no: string }) => i.digital_no || i.invoice_no || i.order_no;

export async function targets(db: Db, dim: AllocationDim, ids: readonly string[]) {
  if (ids.length === 0) return new Map<string, { id: string; code: string; name: string; is_temp: number; source: number }>();
  const rows = await db.selectFrom(targetTable(dim)).select(['id', 'code', 'name', 'is_temp', 'source']).where('id', 'in', [...new Set(ids)]).execute();
  return new Map(rows.map((r) => [r.id, r]));
}

export async function allocationsOf(db: Db, invoiceId: string, dim: AllocationDim): Promise<Array<TargetAmounts & { id: string }>> {
  const rows = await db.selectFrom('invoice_allocations').selectAll().where('invoice_id', '=', invoiceId).where('dim', '=', dim).orderBy('amount_incl', 'desc').orderBy('id').execute();
  const names = await targets(db, dim, rows.map((r) => r.target_id));
  return rows.map((r) => ({ id: r.id, targetId: r.target_id, name: names.get(r.target_id)?.name ?? '（已删除）', amountExcl: Number(r.amount_excl), tax: Number(r.tax), amountIncl: Number(r.amount_incl) }));
}

/** What the created red invoices of a blue one take from each target (negative 分), leaving one out. */
export async function redsByTarget(db: Db, blueId: string, dim: AllocationDim, exceptInvoiceId: string | null): Promise<Map<string, number>> {
  let q = db
    .selectFrom('invoice_allocations as a')
    .innerJoin('invoices as r', 'r.id', 'a.invoice_id')
    .select(['a.target_id', (eb) => eb.fn.sum<number>('a.amount_incl').as('s')])
    .where('r.blue_invoice_id', '=', blueId)
    .where('r.status', '=', InvoiceStatus.created)
    .where('a.dim', '=', dim)
    .groupBy('a.target_id');
  if (exceptInvoiceId) q = q.where('r.id', '!=', exceptInvoiceId);
  return new Map((await q.execute()).map((r) => [r.target_id, Number(r.s)]));
}

const snapshot = (list: readonly TargetAmounts[]): AllocationSnapshot[] => list.map((x) => ({ targetId: x.targetId, name: x.name, amountIncl: x.amountIncl }));

export interface ChangeFacts {
  action: 'default' | 'set' | 'move' | 'match';
  from?: { id: string; name: string } | null;
  to?: { id: string; name: string } | null;
  amountIncl: number;
  reason: string;
  actor: Actor;
}

/** Replaces the invoice's allocations on a dimension by `items` and records the change (before → after). */
export async function replaceAllocations(trx: Db, inv: InvoiceHead, dim: AllocationDim, before: readonly TargetAmounts[], items: readonly TargetAmounts[], change: ChangeFacts): Promise<void> {
  const now = nowIso();
  await trx.deleteFrom('invoice_allocations').where('invoice_id', '=', inv.id).where('dim', '=', dim).execute();
  if (items.length) {
    await trx
      .insertInto('invoice_allocations')
      .values(items.map((x) => ({
        id: newId(), invoice_id: inv.id, dim, target_id: x.targetId, amount_excl: x.amountExcl, tax: x.tax, amount_incl: x.amountIncl, issue_date: inv.issue_date,
        created_by: change.actor.id, created_by_name: change.actor.name, created_at: now, updated_at: now,
      })))
      .execute();
  }
  await trx
    .insertInto('invoice_allocation_changes')
    .values({
      id: newId(), invoice_id: inv.id, dim, action: change.action, from_target_id: change.from?.id ?? null, to_target_id: change.to?.id ?? null,
      from_name: change.from?.name ?? '', to_name: change.to?.name ?? '', amount_incl: change.amountIncl,
      before: JSON.stringify(snapshot(before)), after: JSON.stringify(snapshot(items)), reason: change.reason, user_id: change.actor.id, user_name: change.actor.name, created_at: now,
    })
    .execute();
}

/** The default on one dimension: a red invoice mirrors its blue one's allocations in proportion; a blue one takes its link. */
async function defaultItems(trx: Db, inv: InvoiceHead, dim: AllocationDim): Promise<TargetAmounts[]> {
  if (inv.colour === InvoiceColour.red && inv.blue_invoice_id) {
    const blue = await allocationsOf(trx, inv.blue_invoice_id, dim);
    if (blue.length) {
      const w = blue.map((b) => b.amountIncl);
      const excl = splitProportionally(Number(inv.amount_excl), w);
      const tax = splitProportionally(Number(inv.tax), w);
      return blue.map((b, i) => ({ targetId: b.targetId, name: b.name, amountExcl: excl[i]!, tax: tax[i]!, amountIncl: excl[i]! + tax[i]! })).filter((x) => x.amountIncl !== 0);
    }
  }
  let targetId: string | null = null;
  if (dim === 'contract') targetId = inv.contract_id;
  else if (inv.project_id) targetId = inv.project_id;
  else if (inv.contract_id) targetId = (await trx.selectFrom('contracts').select('project_id').where('id', '=', inv.contract_id).executeTakeFirst())?.project_id ?? null;
  if (!targetId) return [];
  const name = (await targets(trx, dim, [targetId])).get(targetId)?.name ?? '';
  return [{ targetId, name, amountExcl: Number(inv.amount_excl), tax: Number(inv.tax), amountIncl: Number(inv.amount_incl) }];
}

/**
 * The hook of the issuing service: once an invoice is created (2), it gets its default allocations
 * on both dimensions (unless it already has some). Idempotent; runs in the caller's transaction.
 */
export async function allocateOnCreated(trx: Db, invoiceId: string, actor: Actor = SYSTEM): Promise<void> {
  const inv = await loadInvoice(trx, invoiceId);
  if (!inv || inv.status !== InvoiceStatus.created) return;
  for (const dim of ['project', 'contract'] as const) {
    const has = await trx.selectFrom('invoice_allocations').select('id').where('invoice_id', '=', inv.id).where('dim', '=', dim).limit(1).executeTakeFirst();
    if (has) continue;
    const items = await defaultItems(trx, inv, dim);
    if (items.length === 0) continue;
    const reason = inv.colour === InvoiceColour.red ? '红字发票开具成功，按蓝字发票的分摊比例冲减' : '开票成功，按发票关联的项目、合同自动分摊';
    await replaceAllocations(trx, inv, dim, [], items, { action: 'default', to: { id: items[0]!.targetId, name: items[0]!.name }, amountIncl: Number(inv.amount_incl), reason, actor });
  }
}

/** Created invoices that have no allocation yet get their default (blue ones first, so reds can mirror them). */
export async function backfillAllocations(db: Db, batch = 500): Promise<number> {
  let n = 0;
  const seen = new Set<string>();
  for (const colour of [InvoiceColour.blue, InvoiceColour.red]) {
    for (;;) {
      const ids = await db
        .selectFrom('invoices as i')
        .select('i.id')
        .where('i.status', '=', InvoiceStatus.created)
        .where('i.colour', '=', colour)
        .where((eb) => eb.not(eb.exists(eb.selectFrom('invoice_allocation_changes as c').select('c.id').whereRef('c.invoice_id', '=', 'i.id'))))
        .where((eb) => eb.or([eb('i.project_id', 'is not', null), eb('i.contract_id', 'is not', null), eb('i.blue_invoice_id', 'is not', null)]))
        .limit(batch)
        .execute();
      const fresh = ids.filter((x) => !seen.has(x.id));
      for (const { id } of fresh) {
        seen.add(id);
        await db.transaction().execute((trx) => allocateOnCreated(trx, id));
      }
      n += fresh.length;
      // Invoices whose default is empty (a red one whose blue has none) stay without allocation.
      if (ids.length < batch || fresh.length === 0) break;
    }
  }
  return n;
}
