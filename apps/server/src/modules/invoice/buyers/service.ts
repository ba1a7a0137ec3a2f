/** 购方管理: buyers with a GB 32100-checked tax number, unique per company (duplicates refused). */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sql, type Kysely } from 'kysely';
import { EMPTY_ID, InvoiceKind, OperationLogType, type BuyerListQuery, type BuyerRow, type BuyerSaveBody, type PageResult } from '@zhyy/shared';
import type { Database } from '../../../db/schema.js';
import { conflict, notFound, refuse } from '../../../platform/envelope.js';
import { newId } from '../../../platform/ids.js';
import { contains, offsetOf, sortOf } from '../../../platform/listing.js';
import { nowIso } from '../../../platform/time.js';
import type { BuyerTable } from '../tables.js';

const SORTS = { name: 'b.name', taxNo: 'b.tax_no', createdAt: 'b.created_at', updatedAt: 'b.updated_at' } as const;

function toRow(b: BuyerTable & { invoice_count?: number | string | null }): BuyerRow {
  return {
    id: b.id,
    name: b.name,
    taxNo: b.tax_no ?? '',
    address: b.address,
    phone: b.phone,
    bank: b.bank,
    account: b.account,
    email: b.email,
    mobile: b.mobile,
    defaultKind: b.default_kind,
    remark: b.remark,
    invoiceCount: Number(b.invoice_count ?? 0),
    createdAt: b.created_at,
    updatedAt: b.updated_at,
  };
}

export class BuyerService {
  constructor(private readonly app: FastifyInstance) {}
  private get db(): Kysely<Database> {
    return this.app.db.kysely;
  }

  async list(q: BuyerListQuery): Promise<PageResult<BuyerRow>> {
    let base = this.db.selectFrom('invoice_buyers as b');
    if (q.keyword) base = base.where((eb) => eb.or([contains(eb.ref('b.name'), q.keyword!), contains(eb.ref('b.tax_no'), q.keyword!)]));
    if (q.kind) base = base.where('b.default_kind', '=', q.kind);
    const s = sortOf(q.sort, SORTS, { column: 'b.name', order: 'asc' });
    const [rows, total] = await Promise.all([
      base
        .selectAll('b')
        .select((eb) => eb.selectFrom('invoices as i').whereRef('i.buyer_id', '=', 'b.id').select(sql<number>`count(*)`.as('n')).as('invoice_count'))
        .orderBy(s.column, s.order)
        .orderBy('b.id')
        .limit(q.pageSize)
        .offset(offsetOf(q))
        .execute(),
      base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    ]);
    return { items: rows.map(toRow), total: Number(total.n) };
  }

  async detail(id: string): Promise<BuyerRow> {
    const b = await this.db
      .selectFrom('invoice_buyers as b')
      .selectAll('b')
      .select((eb) => eb.selectFrom('invoices as i').whereRef('i.buyer_id', '=', 'b.id').select(sql<number>`count(*)`.as('n')).as('invoice_count'))
      .where('b.id', '=', id)
      .executeTakeFirst();
    if (!b) throw notFound('购方不存在或已删除');
    return toRow(b);
  }

  async save(req: FastifyRequest, body: BuyerSaveBody): Promise<{ id: string }> {
    const isNew = body.id === EMPTY_ID;
    const taxNo = body.taxNo ? body.taxNo : null;
    if (!taxNo && (body.defaultKind === InvoiceKind.s || body.defaultKind === InvoiceKind.bs)) throw refuse('默认开具专用发票的购方须填写税号');
    return this.db.transaction().execute(async (trx) => {
      if (taxNo) {
        const dup = await trx.selectFrom('invoice_buyers').select(['id', 'name']).where('tax_no', '=', taxNo).where('id', '!=', body.id).executeTakeFirst();
        if (dup) throw conflict(`税号 ${taxNo} 已登记为购方「${dup.name}」，不能重复添加`);
      }
      const now = nowIso();
      const values = {
        name: body.name,
        tax_no: taxNo,
        address: body.address,
        phone: body.phone,
        bank: body.bank,
        account: body.account,
        email: body.email,
        mobile: body.mobile,
        default_kind: body.defaultKind,
        remark: body.remark,
        updated_at: now,
      };
      let id = body.id;
      if (isNew) {
        id = newId();
        await trx.insertInto('invoice_buyers').values({ id, ...values, created_by: req.user!.id, created_at: now }).execute();
      } else {
        const r = await trx.updateTable('invoice_buyers').set(values).where('id', '=', id).executeTakeFirst();
        if (Number(r.numUpdatedRows) === 0) throw notFound('购方不存在或已删除');
      }
      await this.app.oplog.record(req, isNew ? OperationLogType.add : OperationLogType.edit, `${isNew ? '新增' : '修改'}购方：${body.name}（${taxNo ?? '无税号'}）`, trx);
      return { id };
    });
  }

  async remove(req: FastifyRequest, id: string): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      const b = await trx.selectFrom('invoice_buyers').select(['name']).where('id', '=', id).executeTakeFirst();
      if (!b) throw notFound('购方不存在或已删除');
      const used = await trx.selectFrom('invoices').select('id').where('buyer_id', '=', id).limit(1).executeTakeFirst();
      if (used) throw refuse('该购方已有开票记录，不能删除');
      await trx.deleteFrom('invoice_buyers').where('id', '=', id).execute();
      await this.app.oplog.record(req, OperationLogType.delete, `删除购方：${b.name}`, trx);
    });
  }
}
