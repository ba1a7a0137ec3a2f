/**
 * Entering cost orders (issue 16, roles 1, 16, 17): save (a new order, or an edit of one awaiting audit),
 * copy last month, re-price. Every change is one entry in the order's log (cost_order_logs) and one in
 * the operation log, written in its transaction.
 *
 * The price is copied onto a line when the line is made; an edit keeps the copy of the lines whose item
 * it keeps (only the quantity or remark changed) and prices only new items, so a later change of the
 * price list reaches an order only through 重新取价 (reprice), asked for explicitly.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { CostOrderSource, monthLabel, OperationLogType, orderTotals, previousMonth, type CostOrderBody, type CostOrderSaved, type CostRepriceResult } from '@zhyy/shared';
import type { Database } from '../../../db/schema.js';
import type { AuthUser } from '../../../platform/context.js';
import { refuse } from '../../../platform/envelope.js';
import { nowIso } from '../../../platform/time.js';
import {
  addLog, closedForChange, lockDeptMonths, closedForNew, copyOf, deptOrRefuse, insertLines, insertOrder, isClosed, itemText, keyOf, liveMessage, liveOrder, lockOrder, noPriceMessage,
  priced, priceLinesOrRefuse, pricesFor, projectOrRefuse, stateProblem, sumsText, writeOrder, yuan, type PriceCopy, type PricedLine,
} from './store.js';
import '../tables.js';

type Db = Kysely<Database>;

export class CostOrderEntry {
  private readonly pg: boolean;
  constructor(private readonly app: FastifyInstance) {
    this.pg = app.db.dialect === 'postgres';
  }

  private get db(): Db {
    return this.app.db.kysely;
  }

  /** A new order (no id) or an edit of one awaiting audit in a month not closed. */
  async save(req: FastifyRequest, user: AuthUser, b: CostOrderBody): Promise<CostOrderSaved> {
    const lines = b.lines.map((l) => ({ itemCode: l.itemCode, spec: l.spec, unit: l.unit, quantity: l.quantity, remark: l.remark ?? '' }));
    const remark = b.remark ?? '';
    if (!b.id) {
      return writeOrder(this.db, b, async (trx) => {
        await lockDeptMonths(trx, this.app.db, [{ deptId: b.deptId, month: b.month }]);
        const { dept, project } = await this.checkNew(trx, b.month, b.deptId, b.projectId);
        const priced = await priceLinesOrRefuse(trx, b.month, lines);
        const made = await insertOrder(trx, {
          month: b.month, dept, project, source: CostOrderSource.entry, remark, lines: priced, user: { id: user.id, name: user.name },
          log: { action: 'create', message: () => `手工录入新建，${sumsText(priced)}` },
        });
        await this.app.oplog.record(req, OperationLogType.add, `新建成本单 ${made.orderNo}（${dept.name}，${project.name}，${monthLabel(b.month)}）`, trx);
        return made;
      });
    }
    const id = b.id;
    return writeOrder(this.db, { ...b, except: id }, async (trx) => {
      const o = await lockOrder(trx, id, this.pg);
      await lockDeptMonths(trx, this.app.db, [{ deptId: o.dept_id, month: o.month }, { deptId: b.deptId, month: o.month }]);
      const problem = stateProblem(o.state);
      if (problem) throw refuse(problem);
      if (b.month !== o.month) throw refuse('成本单的月份不能修改（单号按月份编制），请作废后按新月份录入');
      if (await isClosed(trx, o.dept_id, o.month)) throw refuse(closedForChange(o.dept_name, o.month));
      const dept = await deptOrRefuse(trx, b.deptId);
      const project = await projectOrRefuse(trx, b.projectId);
      if (dept.id !== o.dept_id && (await isClosed(trx, dept.id, o.month))) throw refuse(closedForNew(dept, o.month));
      if (dept.id !== o.dept_id || project.id !== o.project_id) {
        const other = await liveOrder(trx, o.month, dept.id, project.id, id);
        if (other) throw refuse(liveMessage(o.month, other.order_no));
      }
      const before = await trx.selectFrom('cost_order_lines').selectAll().where('order_id', '=', id).orderBy('line_no').execute();
      // The lines that keep their item keep the price they were made with.
      const kept = new Map<string, PriceCopy>();
      for (const l of before) {
        const k = keyOf({ itemCode: l.item_code, spec: l.spec, unit: l.unit });
        if (!kept.has(k)) kept.set(k, { priceId: l.price_id, itemName: l.item_name, category: l.category, unitPrice: l.unit_price, taxRate: l.tax_rate, priceFrom: l.price_from, priceTo: l.price_to });
      }
      const after = await priceLinesOrRefuse(trx, o.month, lines, kept);
      const totals = orderTotals(after);
      await trx.deleteFrom('cost_order_lines').where('order_id', '=', id).execute();
      await insertLines(trx, id, after);
      await trx
        .updateTable('cost_orders')
        .set({ dept_id: dept.id, dept_name: dept.name, project_id: project.id, project_code: project.code, project_name: project.name, remark, amount: totals.amount, tax: totals.tax, line_count: after.length, updated_at: nowIso() })
        .where('id', '=', id)
        .execute();
      const changes: string[] = [];
      if (dept.id !== o.dept_id) changes.push(`部门 ${o.dept_name} → ${dept.name}`);
      if (project.id !== o.project_id) changes.push(`项目 ${o.project_name} → ${project.name}`);
      if (before.length !== after.length) changes.push(`明细 ${before.length} 行 → ${after.length} 行`);
      else if (before.some((l, i) => l.item_code !== after[i]!.itemCode || l.spec !== after[i]!.spec || l.unit !== after[i]!.unit || l.quantity !== after[i]!.quantity || l.remark !== after[i]!.remark)) changes.push(`明细已修改（${after.length} 行）`);
      if (Number(o.amount) !== totals.amount || Number(o.tax) !== totals.tax) changes.push(`金额 ${yuan(Number(o.amount))} 元 → ${yuan(totals.amount)} 元，税额 ${yuan(Number(o.tax))} 元 → ${yuan(totals.tax)} 元`);
      if (o.remark !== remark) changes.push('备注已修改');
      await addLog(trx, id, 'edit', changes.length ? `修改：${changes.join('；')}` : '保存，内容无变化', user.name);
      await this.app.oplog.record(req, OperationLogType.edit, `修改成本单 ${o.order_no}${changes.length ? `：${changes.join('；')}` : '（无变化）'}`, trx);
      return { id, orderNo: o.order_no };
    });
  }

  /** The department and project of a new order exist, its month is not closed, and it has no live order yet. */
  async checkNew(trx: Db, month: string, deptId: string, projectId: string) {
    const dept = await deptOrRefuse(trx, deptId);
    const project = await projectOrRefuse(trx, projectId);
    if (await isClosed(trx, dept.id, month)) throw refuse(closedForNew(dept, month));
    const other = await liveOrder(trx, month, dept.id, project.id);
    if (other) throw refuse(liveMessage(month, other.order_no));
    return { dept, project };
  }

  /** 复制上月: a new order of `month` with the lines of the same department and project's live order of the month before, priced for `month`. */
  async copyLastMonth(req: FastifyRequest, user: AuthUser, b: { month: string; deptId: string; projectId: string }): Promise<CostOrderSaved> {
    const prev = previousMonth(b.month);
    return writeOrder(this.db, b, async (trx) => {
      await lockDeptMonths(trx, this.app.db, [{ deptId: b.deptId, month: b.month }]);
      const { dept, project } = await this.checkNew(trx, b.month, b.deptId, b.projectId);
      const source = await liveOrder(trx, prev, dept.id, project.id);
      if (!source) throw refuse(`${dept.name}在${project.name}${monthLabel(prev)}没有成本单，无法复制`);
      const from = await trx.selectFrom('cost_orders').select('remark').where('id', '=', source.id).executeTakeFirstOrThrow();
      const lines = await trx.selectFrom('cost_order_lines').selectAll().where('order_id', '=', source.id).orderBy('line_no').execute();
      const priced = await priceLinesOrRefuse(trx, b.month, lines.map((l) => ({ itemCode: l.item_code, spec: l.spec, unit: l.unit, quantity: l.quantity, remark: l.remark })));
      const made = await insertOrder(trx, {
        month: b.month, dept, project, source: CostOrderSource.entry, remark: from.remark, lines: priced, user: { id: user.id, name: user.name },
        log: { action: 'create', message: () => `复制上月成本单 ${source.order_no} 新建，按${monthLabel(b.month)}价格取价，${sumsText(priced)}` },
      });
      await this.app.oplog.record(req, OperationLogType.add, `复制上月成本单 ${source.order_no} 新建 ${made.orderNo}（${dept.name}，${project.name}，${monthLabel(b.month)}）`, trx);
      return made;
    });
  }

  /** 重新取价: every line takes the price the list holds for the order's month now (awaiting audit, month not closed). */
  async reprice(req: FastifyRequest, user: AuthUser, id: string): Promise<CostRepriceResult> {
    return this.db.transaction().execute(async (trx) => {
      const o = await lockOrder(trx, id, this.pg);
      await lockDeptMonths(trx, this.app.db, [{ deptId: o.dept_id, month: o.month }]);
      const problem = stateProblem(o.state);
      if (problem) throw refuse(problem);
      if (await isClosed(trx, o.dept_id, o.month)) throw refuse(closedForChange(o.dept_name, o.month));
      const lines = await trx.selectFrom('cost_order_lines').selectAll().where('order_id', '=', id).orderBy('line_no').execute();
      const keys = lines.map((l) => ({ itemCode: l.item_code, spec: l.spec, unit: l.unit }));
      const windows = await pricesFor(trx, o.month, keys);
      const missing = keys.filter((k) => !windows.has(keyOf(k)));
      if (missing.length) throw refuse(`${[...new Set(missing.map((k) => noPriceMessage(k, o.month)))].slice(0, 5).join('；')}，不能重新取价`);
      const after: PricedLine[] = [];
      const said: string[] = [];
      let changed = 0;
      for (const l of lines) {
        const copy = copyOf(windows.get(keyOf({ itemCode: l.item_code, spec: l.spec, unit: l.unit }))!);
        const p = priced({ itemCode: l.item_code, spec: l.spec, unit: l.unit, quantity: l.quantity, remark: l.remark }, copy);
        after.push(p);
        const same =
          copy.priceId === l.price_id && copy.unitPrice === l.unit_price && copy.taxRate === l.tax_rate && copy.priceFrom === l.price_from && copy.priceTo === l.price_to &&
          copy.itemName === l.item_name && copy.category === l.category && p.amount === Number(l.amount) && p.tax === Number(l.tax);
        if (same) continue;
        changed++;
        await trx
          .updateTable('cost_order_lines')
          .set({ price_id: copy.priceId, item_name: copy.itemName, category: copy.category, unit_price: copy.unitPrice, tax_rate: copy.taxRate, price_from: copy.priceFrom, price_to: copy.priceTo, amount: p.amount, tax: p.tax })
          .where('id', '=', l.id)
          .execute();
        if (said.length < 10) {
          const what = copy.unitPrice !== l.unit_price || copy.taxRate !== l.tax_rate ? `单价 ${l.unit_price} → ${copy.unitPrice}${copy.taxRate !== l.tax_rate ? `，税率 ${l.tax_rate} → ${copy.taxRate}` : ''}` : `价格来源 ${copy.priceFrom} 起`;
          said.push(`${itemText({ itemCode: l.item_code, spec: l.spec, unit: l.unit })} ${what}`);
        }
      }
      if (changed) {
        const totals = orderTotals(after);
        await trx.updateTable('cost_orders').set({ amount: totals.amount, tax: totals.tax, updated_at: nowIso() }).where('id', '=', id).execute();
        const message = `重新取价：${changed} 行价格变更（${said.join('；')}${changed > said.length ? '等' : ''}），金额 ${yuan(Number(o.amount))} 元 → ${yuan(totals.amount)} 元，税额 ${yuan(Number(o.tax))} 元 → ${yuan(totals.tax)} 元`;
        await addLog(trx, id, 'reprice', message, user.name);
        await this.app.oplog.record(req, OperationLogType.edit, `成本单 ${o.order_no} ${message}`, trx);
      }
      return { id, orderNo: o.order_no, changed };
    });
  }
}
