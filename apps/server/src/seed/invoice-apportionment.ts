/**
 * Demo allocations (issue 7), after the invoice seeder: every created invoice gets its default
 * allocation (the same the issuing hook gives), then a few realistic changes made by the clerk —
 * an invoice split between two projects, a contract allocation, a partial project change — so both
 * ledgers, their histories and the statistics have something to show. The temporary project keeps
 * its invoices, for the temp-project statistics.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { InvoiceColour, InvoiceStatus } from '@zhyy/shared';
import type { Database } from '../db/schema.js';
import type { Db } from '../db/index.js';
import { ApportionmentService } from '../modules/invoice/apportionment/service.js';
import { backfillAllocations } from '../modules/invoice/apportionment/store.js';
import { demoId } from '../platform/ids.js';
import { OperationLogService } from '../platform/oplog.js';
import type { SeedContext } from './context.js';

/** The seed runs in one transaction: the service's own transactions run in it. */
const flat = (trx: Kysely<Database>): Kysely<Database> =>
  new Proxy(trx, {
    get(t, p) {
      if (p === 'transaction') return () => ({ execute: <T>(fn: (k: Kysely<Database>) => Promise<T>) => fn(t) });
      const v: unknown = Reflect.get(t, p, t);
      return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(t) : v;
    },
  });

export async function seedInvoiceApportionment(ctx: SeedContext): Promise<void> {
  const db = flat(ctx.db);
  await backfillAllocations(db);
  const handle: Db = { kysely: db, dialect: 'sqlite', close: async () => undefined };
  const app = { db: handle, oplog: new OperationLogService(handle) } as unknown as FastifyInstance;
  const clerk = ctx.users.find((u) => u.loginName === 'demo5') ?? ctx.users[0]!;
  const req = { user: { id: clerk.id, name: clerk.name, loginName: clerk.loginName, roles: clerk.roles }, ip: '127.0.0.1' } as unknown as FastifyRequest;
  const service = new ApportionmentService(app);
  const project = (key: string) => demoId(`project:${key}`);
  const contract = (code: string) => demoId(`contract:${code}`);

  const blue = await db
    .selectFrom('invoices')
    .select(['id', 'project_id', 'amount_excl', 'tax', 'amount_incl'])
    .where('status', '=', InvoiceStatus.created)
    .where('colour', '=', InvoiceColour.blue)
    .where('project_id', 'in', [project('lsdl'), project('jbgl'), project('temp1')])
    .orderBy('amount_incl', 'desc')
    .execute();
  const on = (key: string) => blue.find((b) => b.project_id === project(key));

  // The largest invoice of 溧水 is split 70 / 30 with 南京南站 (the works were shared).
  const split = on('lsdl');
  if (split) {
    const incl = Math.round(Number(split.amount_incl) * 0.3);
    const tax = Math.round((Number(split.tax) * incl) / Number(split.amount_incl));
    await service.set(req, {
      invoiceId: split.id, dim: 'project', reason: '溧水道路改造与南京南站雨污分流共用施工队伍，按工作量 7:3 分摊',
      items: [
        { targetId: project('lsdl'), amountIncl: Number(split.amount_incl) - incl, tax: Number(split.tax) - tax, amountExcl: Number(split.amount_incl) - incl - (Number(split.tax) - tax) },
        { targetId: project('njnz'), amountIncl: incl, tax, amountExcl: incl - tax },
      ],
    });
    await service.matchContract(req, { invoiceId: split.id, allocationId: null, toTargetId: contract('HJ-HT-2026-014'), reason: '按施工合同归集' });
  }
  // 江北管廊: the order allocation goes to the construction contract, then part of it to supervision.
  const jb = on('jbgl');
  if (jb) {
    await service.matchContract(req, { invoiceId: jb.id, allocationId: null, toTargetId: contract('HJ-HT-2026-011'), reason: '按施工总承包合同归集' });
    const a = await db.selectFrom('invoice_allocations').select('id').where('invoice_id', '=', jb.id).where('dim', '=', 'project').executeTakeFirst();
    if (a) await service.move(req, 'project', { allocationId: a.id, toTargetId: project('wxdt'), amountIncl: Math.min(2_000_000, Number(jb.amount_incl) - 1), reason: '部分工程量属于无锡地铁配套工程，经项目部确认调整' });
  }
}
