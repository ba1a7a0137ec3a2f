/**
 * Changing allocations: set / split an invoice's allocations on one dimension, move (part of) one
 * allocation to another target (project-change, contract-change), and match a temporary project or
 * an unallocated part to a real one. Every change passes the same rules (rules.ts) inside one
 * transaction, writes its change row (who, when, why, before → after) and an operation log row.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { InvoiceColour, InvoiceStatus, OperationLogType, type AllocationDim, type AllocationMoveBody, type AllocationSetBody, type TempMatchBody } from '@zhyy/shared';
import { currentUser } from '../../../platform/context.js';
import { notFound, refuse } from '../../../platform/envelope.js';
import { invoiceRef } from '../../../platform/oplog.js';
import { addTo, allocationProblems, partOf, yuan, type TargetAmounts } from './rules.js';
import { allocationsOf, dimLabel, invoiceNumber, loadInvoice, redsByTarget, replaceAllocations, targets, type ChangeFacts, type Db, type InvoiceHead } from './store.js';

export class ApportionmentService {
  constructor(private readonly app: FastifyInstance) {}

  private get db(): Db {
    return this.app.db.kysely;
  }

  private actor(req: FastifyRequest) {
    const u = currentUser(req);
    return { id: u.id, name: u.name };
  }

  /** Checks the new set against the invoice (and its blue one or its reds), then stores it. */
  private async commit(trx: Db, inv: InvoiceHead, dim: AllocationDim, before: TargetAmounts[], items: TargetAmounts[], change: ChangeFacts): Promise<void> {
    if (inv.status !== InvoiceStatus.created) throw refuse('只有开票成功的发票可以分摊');
    const red = inv.colour === InvoiceColour.red;
    if (red && !inv.blue_invoice_id) throw refuse('该红字发票未关联蓝字发票，无法分摊');
    const blue = red ? await allocationsOf(trx, inv.blue_invoice_id!, dim) : before;
    const reds = red ? await redsByTarget(trx, inv.blue_invoice_id!, dim, inv.id) : await redsByTarget(trx, inv.id, dim, null);
    const problems = allocationProblems({ colour: inv.colour, status: inv.status, amountExcl: Number(inv.amount_excl), tax: Number(inv.tax), amountIncl: Number(inv.amount_incl) }, items, { blue, redsByTarget: reds, dimLabel: dimLabel(dim) });
    if (problems.length) throw refuse(problems.join('；'));
    await replaceAllocations(trx, inv, dim, before, items, change);
  }

  private async invoice(trx: Db, id: string): Promise<InvoiceHead> {
    const inv = await loadInvoice(trx, id);
    if (!inv) throw notFound('发票不存在');
    return inv;
  }

  private async named(trx: Db, dim: AllocationDim, id: string, realOnly = false) {
    const t = (await targets(trx, dim, [id])).get(id);
    if (!t) throw refuse(dim === 'project' ? '项目不存在' : '合同不存在');
    if (realOnly && t.is_temp === 1) throw refuse(`「${t.name}」是临时${dim === 'project' ? '项目' : '合同'}，请选择正式的${dim === 'project' ? '项目' : '合同'}`);
    return t;
  }

  async set(req: FastifyRequest, b: AllocationSetBody): Promise<void> {
    const actor = this.actor(req);
    await this.db.transaction().execute(async (trx) => {
      const inv = await this.invoice(trx, b.invoiceId);
      const names = await targets(trx, b.dim, b.items.map((x) => x.targetId));
      const missing = b.items.find((x) => !names.has(x.targetId));
      if (missing) throw refuse(b.dim === 'project' ? '所选项目不存在' : '所选合同不存在');
      const items = b.items.map((x) => ({ ...x, name: names.get(x.targetId)!.name }));
      const before = await allocationsOf(trx, inv.id, b.dim);
      await this.commit(trx, inv, b.dim, before, items, { action: 'set', amountIncl: Number(inv.amount_incl), reason: b.reason, actor });
      const desc = `调整${dimLabel(b.dim)}：发票 ${invoiceNumber(inv)} 分摊到 ${items.map((x) => `${x.name} ${yuan(x.amountIncl)}元`).join('、')}（原因：${b.reason}）`;
      await this.app.oplog.recordFor(invoiceRef(inv.id), req, OperationLogType.edit, desc, trx);
    });
  }

  /** project-change / contract-change: `amountIncl` (a magnitude) of the allocation goes to the target. */
  async move(req: FastifyRequest, dim: AllocationDim, b: AllocationMoveBody, action: 'move' | 'match' = 'move'): Promise<void> {
    const actor = this.actor(req);
    await this.db.transaction().execute(async (trx) => {
      const a = await trx.selectFrom('invoice_allocations').selectAll().where('id', '=', b.allocationId).executeTakeFirst();
      if (!a || a.dim !== dim) throw notFound('分摊记录不存在，可能已被他人变更，请刷新');
      if (a.target_id === b.toTargetId) throw refuse('变更后的对象与原对象相同');
      const inv = await this.invoice(trx, a.invoice_id);
      const to = await this.named(trx, dim, b.toTargetId, action === 'match');
      const before = await allocationsOf(trx, inv.id, dim);
      const from = before.find((x) => x.targetId === a.target_id)!;
      const sign = Number(a.amount_incl) < 0 ? -1 : 1;
      if (b.amountIncl > Math.abs(from.amountIncl)) throw refuse(`变更金额 ${yuan(b.amountIncl)} 元超过该分摊的金额 ${yuan(Math.abs(from.amountIncl))} 元`);
      const part = partOf(from, sign * b.amountIncl);
      const items = addTo(addTo(before, from.targetId, from.name, part, -1), to.id, to.name, part, 1);
      await this.commit(trx, inv, dim, before, items, { action, from: { id: from.targetId, name: from.name }, to: { id: to.id, name: to.name }, amountIncl: part.amountIncl, reason: b.reason, actor });
      const what = dim === 'project' ? '项目变更' : '订单变更';
      await this.app.oplog.recordFor(invoiceRef(inv.id), req, OperationLogType.edit, `${what}：发票 ${invoiceNumber(inv)} 的 ${yuan(part.amountIncl)} 元由「${from.name}」变更到「${to.name}」（原因：${b.reason}）`, trx);
    });
  }

  /** temp-project: a temporary project's allocation moves to a real project as a whole. */
  async matchProject(req: FastifyRequest, b: TempMatchBody): Promise<void> {
    if (!b.allocationId) throw refuse('请选择要匹配的临时项目分摊');
    const a = await this.db.selectFrom('invoice_allocations as a').innerJoin('projects as p', 'p.id', 'a.target_id').select(['a.amount_incl', 'a.invoice_id', 'p.is_temp']).where('a.id', '=', b.allocationId).where('a.dim', '=', 'project').executeTakeFirst();
    if (!a || a.invoice_id !== b.invoiceId) throw notFound('分摊记录不存在，可能已被他人变更，请刷新');
    if (a.is_temp !== 1) throw refuse('该分摊已不在临时项目上');
    await this.move(req, 'project', { allocationId: b.allocationId, toTargetId: b.toTargetId, amountIncl: Math.abs(Number(a.amount_incl)), reason: b.reason || '临时项目匹配正式项目' }, 'match');
  }

  /** temp-contract: the parts on temporary contracts and the part not allocated to any contract go to a real contract. */
  async matchContract(req: FastifyRequest, b: TempMatchBody): Promise<void> {
    const actor = this.actor(req);
    await this.db.transaction().execute(async (trx) => {
      const inv = await this.invoice(trx, b.invoiceId);
      const to = await this.named(trx, 'contract', b.toTargetId, true);
      const before = await allocationsOf(trx, inv.id, 'contract');
      const info = await targets(trx, 'contract', before.map((x) => x.targetId));
      // Temporary contracts' parts and the unallocated part all go to the chosen contract.
      const real = before.filter((x) => info.get(x.targetId)?.is_temp !== 1);
      const rest = { amountExcl: Number(inv.amount_excl), tax: Number(inv.tax), amountIncl: Number(inv.amount_incl) };
      for (const x of real) {
        rest.amountExcl -= x.amountExcl;
        rest.tax -= x.tax;
        rest.amountIncl -= x.amountIncl;
      }
      if (rest.amountIncl === 0) throw refuse('该发票已全部分摊到正式合同');
      const items = addTo(real, to.id, to.name, rest, 1);
      await this.commit(trx, inv, 'contract', before, items, { action: 'match', to: { id: to.id, name: to.name }, amountIncl: rest.amountIncl, reason: b.reason || '未分摊金额匹配到合同', actor });
      await this.app.oplog.recordFor(invoiceRef(inv.id), req, OperationLogType.edit, `临时合同开票匹配：发票 ${invoiceNumber(inv)} 的 ${yuan(rest.amountIncl)} 元分摊到「${to.name}」`, trx);
    });
  }
}
