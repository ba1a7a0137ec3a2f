/**
 * Adding and editing contracts (roles 1, 4, 6 add; 1, 4, 6, 7, 8 edit). An order belongs to a frame
 * contract; a frame keeps its type while it has orders; codes are unique (the 0004 index is the judge:
 * its refusal is answered 409). Every change writes the operation log about the contract (新增/修改 with
 * before → after), in the same transaction, so the detail page shows who changed what and when.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { ContractType, OperationLogType, formatFen, type TenderContractInput, type TenderContractRow } from '@zhyy/shared';
import type { Database } from '../../../db/schema.js';
import { conflict, notFound, refuse } from '../../../platform/envelope.js';
import { newId } from '../../../platform/ids.js';
import { nowIso } from '../../../platform/time.js';
import { shanghaiDay } from '../../../platform/listing.js';
import { contractById } from './queries.js';
import '../tables.js';

type Db = Kysely<Database>;

/** A unique index's refusal (SQLite: UNIQUE constraint failed; PostgreSQL: SQLSTATE 23505). */
export function isUniqueViolation(err: unknown, index?: string): boolean {
  const e = err as { code?: unknown; message?: unknown; constraint?: unknown } | null;
  if (!e) return false;
  const msg = String(e.message ?? '');
  const unique = e.code === '23505' || /UNIQUE constraint failed/i.test(msg);
  return unique && (!index || String(e.constraint ?? '') === index || msg.includes(index));
}

const FIELDS: { key: keyof TenderContractRow; label: string; show?: (v: unknown) => string }[] = [
  { key: 'contractType', label: '合同类型', show: (v) => ContractType.label(v) },
  { key: 'code', label: '合同编号' },
  { key: 'name', label: '合同名称' },
  { key: 'customer', label: '客户' },
  { key: 'amount', label: '合同金额', show: (v) => `${formatFen(Number(v))}元` },
  { key: 'projectName', label: '项目' },
  { key: 'frameCode', label: '框架合同' },
  { key: 'managerName', label: '合同负责人' },
  { key: 'signedOn', label: '签订日期' },
  { key: 'workFrom', label: '工期开始日期' },
  { key: 'workTo', label: '工期结束日期' },
  { key: 'acceptedOn', label: '竣工验收日期' },
  { key: 'remark', label: '备注' },
];

const shown = (f: (typeof FIELDS)[number], v: unknown) => (v === null || v === undefined || v === '' ? '空' : f.show ? f.show(v) : String(v));

/** 'Field: a → b' for each field that changed (the history's description). */
export function contractChanges(before: TenderContractRow, after: TenderContractRow): string[] {
  return FIELDS.filter((f) => (before[f.key] ?? null) !== (after[f.key] ?? null)).map((f) => `${f.label}：${shown(f, before[f.key])} → ${shown(f, after[f.key])}`);
}

export class TenderContractService {
  constructor(private readonly app: FastifyInstance) {}

  private get db(): Db {
    return this.app.db.kysely;
  }

  private get pg(): boolean {
    return this.app.db.dialect === 'postgres';
  }

  private async checkRefs(trx: Db, b: TenderContractInput, selfId: string | undefined): Promise<void> {
    // 竣工验收 is a fact that has happened: not a day after today (Asia/Shanghai).
    if (b.acceptedOn && b.acceptedOn > shanghaiDay()) throw refuse('竣工验收日期不能晚于今天');
    if (b.projectId && !(await trx.selectFrom('projects').select('id').where('id', '=', b.projectId).executeTakeFirst())) throw refuse('所选项目不存在，请重新选择');
    if (b.managerId && !(await trx.selectFrom('users').select('id').where('id', '=', b.managerId).executeTakeFirst())) throw refuse('所选合同负责人不存在，请重新选择');
    if (b.frameId) {
      if (b.frameId === selfId) throw refuse('订单合同不能属于自己');
      // Held until commit on PostgreSQL, so an edit turning this frame into another type (which locks it
      // too, then counts its orders) waits for this order, or this order sees the new type.
      const f = await trx.selectFrom('contracts').select(['contract_type']).where('id', '=', b.frameId).$if(this.pg, (q) => q.forUpdate()).executeTakeFirst();
      if (!f) throw refuse('所选框架合同不存在，请重新选择');
      if (f.contract_type !== ContractType.frame) throw refuse('所选合同不是框架合同，请选择框架合同');
    }
    const dup = await trx.selectFrom('contracts').select(['id', 'name']).where('code', '=', b.code).executeTakeFirst();
    if (dup && dup.id !== selfId) throw conflict(`合同编号${b.code}已被「${dup.name}」使用`);
  }

  /** Adds a contract; `allowed` the types the page adds (addcf: frame; addc: single or order). */
  async add(req: FastifyRequest, b: TenderContractInput, allowed: readonly number[]): Promise<TenderContractRow> {
    if (b.id) throw refuse('新增合同不能带ID');
    if (!allowed.includes(b.contractType)) throw refuse(`此处不能新增${ContractType.label(b.contractType)}`);
    const id = newId();
    await this.writing(b.code, async (trx) => {
      await this.checkRefs(trx, b, undefined);
      const now = nowIso();
      await trx.insertInto('contracts').values({
        id, ...columnsOf(b), source: 0, is_temp: 0, updated_by: req.user?.name ?? '', created_at: now, updated_at: now,
      }).execute();
      const row = (await contractById(trx, id))!;
      await this.app.oplog.recordFor({ kind: 'contract', id }, req, OperationLogType.add, `新增${ContractType.label(b.contractType)}：${b.code} ${b.name}，金额${formatFen(b.amount)}元`, trx);
      return row;
    });
    return (await contractById(this.db, id))!;
  }

  async edit(req: FastifyRequest, b: TenderContractInput): Promise<TenderContractRow> {
    const id = b.id;
    if (!id) throw refuse('请选择要修改的合同');
    await this.writing(b.code, async (trx) => {
      const before = await contractById(trx, id);
      if (!before) throw notFound('合同不存在或已删除');
      if (before.contractType !== b.contractType) {
        if (before.contractType === ContractType.frame) {
          // Lock the frame before counting its orders (see checkRefs): an order being added under it is counted or refused.
          if (this.pg) await trx.selectFrom('contracts').select('id').where('id', '=', id).forUpdate().execute();
          const n = Number((await trx.selectFrom('contracts').select((eb) => eb.fn.countAll<number>().as('n')).where('parent_id', '=', id).executeTakeFirstOrThrow()).n);
          if (n > 0) throw refuse(`该框架合同下有 ${n} 个订单合同，不能改为其他类型`);
        }
      }
      await this.checkRefs(trx, b, id);
      await trx.updateTable('contracts').set({
        ...columnsOf(b), is_temp: 0, updated_by: req.user?.name ?? '', updated_at: nowIso(),
      }).where('id', '=', id).execute();
      const after = (await contractById(trx, id))!;
      const changes = contractChanges(before, after);
      await this.app.oplog.recordFor({ kind: 'contract', id }, req, OperationLogType.edit, `修改合同 ${after.code}：${changes.length ? changes.join('；') : '未改动'}`, trx);
    });
    return (await contractById(this.db, id))!;
  }

  /** One transaction; a code taken at the same moment by another save becomes the 409 answer. */
  private async writing<T>(code: string, fn: (trx: Db) => Promise<T>): Promise<T> {
    try {
      return await this.db.transaction().execute(fn);
    } catch (err) {
      if (isUniqueViolation(err)) throw conflict(`合同编号${code}已被使用`);
      throw err;
    }
  }
}

function columnsOf(b: TenderContractInput) {
  return {
    contract_type: b.contractType, code: b.code, name: b.name, customer: b.customer, amount: b.amount, project_id: b.projectId ?? null, parent_id: b.frameId ?? null,
    manager_id: b.managerId ?? null, signed_on: b.signedOn ?? null, work_from: b.workFrom ?? null, work_to: b.workTo ?? null, accepted_on: b.acceptedOn ?? null, remark: b.remark,
  };
}
