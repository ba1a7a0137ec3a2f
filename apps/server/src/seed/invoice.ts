/**
 * The outgoing-invoice area's demo data: settings (simulator), tax codes, buyers, projects and
 * contracts; approved 开票申请 replayed through the workflow engine and turned into requests; entered
 * requests; and invoices in every state, issued through the tax simulator itself (so their numbers,
 * PDFs and the sync log are the simulator's): created, failed 22 and 24, cancelled, canceling,
 * invalid, a red invoice, and red-letter confirmations ours (draft) and a buyer's (awaiting us).
 * The services run on the seed's transaction through a small stand-in for the app.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { InvoiceKind, computeLine, EMPTY_ID, type InvoiceSaveBody } from '@zhyy/shared';
import type { Db } from '../db/index.js';
import type { Database } from '../db/schema.js';
import { seedBuyerRedConfirm } from '../integrations/tax/index.js';
import { CancellationService } from '../modules/invoice/cancellation/service.js';
import { INVOICE_REQUEST_FLOW, importRequest, saveEntry } from '../modules/invoice/issuing/entry.js';
import { IssuingService } from '../modules/invoice/issuing/service.js';
import { RedConfirmService } from '../modules/invoice/redletter/service.js';
import { RetryService } from '../modules/invoice/issuing/retry.js';
import { defaultSettings, InvoiceSettings } from '../modules/invoice/settings/service.js';
import { WorkflowEngine } from '../modules/workflow/engine.js';
import { OutcomeRegistry } from '../modules/workflow/outcomes.js';
import { wf } from '../modules/workflow/tables.js';
import { demoId } from '../platform/ids.js';
import { OperationLogService } from '../platform/oplog.js';
import { SyncLogService } from '../platform/synclog.js';
import { COMPANY_NAME, DEPARTMENTS, type DemoUser } from './company.js';
import type { SeedContext } from './context.js';
import { BUYERS, CONTRACTS, PROJECTS, SELLER, TAX_CODES } from './invoiceData.js';

/** The seed runs in one transaction: nested transactions of the services run in it. */
function flat(trx: Kysely<Database>): Kysely<Database> {
  return new Proxy(trx, {
    get(t, p) {
      if (p === 'transaction') return () => ({ execute: <T>(fn: (k: Kysely<Database>) => Promise<T>) => fn(t) });
      const v: unknown = Reflect.get(t, p, t);
      return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(t) : v;
    },
  });
}

/** The tax classification codes the line lookup offers (reference data, loaded on every first start). */
export async function insertTaxCodes(db: Kysely<Database>): Promise<void> {
  await db.insertInto('invoice_tax_codes').values(TAX_CODES.map((c, i) => ({ code: c.code, name: c.name, short_name: c.shortName, tax_rate: c.taxRate, policy: c.policy, sort: i }))).execute();
}

async function reference(db: Kysely<Database>, at: string, clerk: DemoUser): Promise<void> {
  await db.insertInto('invoice_settings').values({
    ...defaultSettings(), seller_name: COMPANY_NAME, seller_tax_no: SELLER.taxNo, seller_address: SELLER.address, seller_phone: SELLER.phone,
    seller_bank: SELLER.bank, seller_account: SELLER.account, clerk: clerk.name, payee: '周敏', checker: '陈静', simulator_delay_ms: 0, updated_by: '系统', updated_at: at,
  }).execute();
  await insertTaxCodes(db);
  await db.insertInto('invoice_buyers').values(BUYERS.map((x) => ({
    id: demoId(`buyer:${x.key}`), name: x.name, tax_no: x.taxNo, address: x.address, phone: x.phone, bank: x.bank, account: x.account, email: x.email,
    mobile: '', default_kind: x.kind, remark: '', created_by: clerk.id, created_at: at, updated_at: at,
  }))).execute();
  await db.insertInto('projects').values(PROJECTS.map((p) => ({ id: demoId(`project:${p.key}`), code: p.code, name: p.name, customer: p.customer, amount: p.amount, source: p.source, is_temp: p.temp ? 1 : 0, created_at: at, updated_at: at }))).execute();
  await db.insertInto('contracts').values(CONTRACTS.map((c) => ({
    id: demoId(`contract:${c.code}`), code: c.code, name: c.name, customer: c.customer, project_id: demoId(`project:${c.project}`), contract_type: c.type,
    amount: c.amount, source: c.source, is_temp: 0, created_at: at, updated_at: at,
  }))).execute();
}

/** Approved 开票申请: started and approved through the engine, which hands each to invoicing as the server does. */
async function approvedRequests(ctx: SeedContext, db: Kysely<Database>, settings: InvoiceSettings): Promise<void> {
  const outcomes = new OutcomeRegistry();
  outcomes.onFlow(INVOICE_REQUEST_FLOW, async (e) => {
    if (e.kind === 'complete') await importRequest(e.trx, e, await settings.row(e.trx));
  });
  const engine = new WorkflowEngine({ kysely: db, dialect: 'sqlite', close: async () => undefined }, outcomes);
  const byId = new Map(ctx.users.map((u) => [u.id, u]));
  const starter = ctx.users.find((u) => u.dept === 'market' && u.loginName !== 'admin') ?? ctx.users[1]!;
  const actor = (u: DemoUser) => ({ id: u.id, name: u.name, roles: u.roles, deptId: demoId(`dept:${u.dept}`), deptName: DEPARTMENTS.find((d) => d.key === u.dept)?.name ?? '' });
  const requests = [
    { buyer: BUYERS[0]!, project: PROJECTS[1]!, kind: '数电专票', lines: [['*建筑服务*工程施工', '9%', 86_000_000], ['*现代服务*技术咨询', '6%', 3_200_000]] as const },
    { buyer: BUYERS[1]!, project: PROJECTS[0]!, kind: '数电专票', lines: [['*建筑服务*工程施工', '9%', 52_300_000]] as const },
    { buyer: BUYERS[2]!, project: PROJECTS[2]!, kind: '数电普票', lines: [['*建筑服务*工程施工', '9%', 18_800_000], ['*现代服务*工程监理', '6%', 1_500_000]] as const },
    { buyer: BUYERS[3]!, project: PROJECTS[3]!, kind: '数电专票', lines: [['*建筑服务*工程施工', '9%', 64_000_000]] as const },
  ];
  for (const [i, r] of requests.entries()) {
    const lines = r.lines.map(([goods, taxRate, amount]) => ({ goods, spec: '', unit: '项', quantity: 1, taxRate, amount }));
    const form = { buyer: r.buyer.name, buyerTaxNo: r.buyer.taxNo, invoiceKind: r.kind, basis: '项目', reference: r.project.name, lines, amount: lines.reduce((s, l) => s + l.amount, 0), remark: `项目名称：${r.project.name}` };
    const { workId } = await engine.start(actor(starter), { flowNo: 'KP01', title: `开票申请：${r.buyer.name}（${r.project.name}）`, form }, db, { recordType: 'invoice-request', recordId: demoId(`invoice-request:${i}`) });
    for (let hop = 0; hop < 6; hop++) {
      const open = await wf(db).selectFrom('wf_work_items').select('handler_id').where('work_id', '=', workId).where('state', '=', 0).orderBy('handler_name').executeTakeFirst();
      const who = open && byId.get(open.handler_id);
      if (!who) break;
      await engine.send(actor(who), { workId, opinion: '同意开票' }, db);
    }
  }
}

function entry(buyerIdx: number, kind: InvoiceSaveBody['kind'], goods: Array<[number, string, number]>, project = 0): InvoiceSaveBody {
  const x = BUYERS[buyerIdx]!;
  const code = (c: number) => TAX_CODES[c]!;
  return {
    id: EMPTY_ID, kind, buyerId: demoId(`buyer:${x.key}`), buyerName: x.name, buyerTaxNo: x.taxNo, buyerAddress: x.address, buyerPhone: x.phone, buyerBank: x.bank,
    buyerAccount: x.account, buyerEmail: x.email, buyerMobile: '', projectId: demoId(`project:${PROJECTS[project]!.key}`), contractId: null, specialFactor: 0,
    constructionSite: '', constructionProject: '', remark: '', clerk: '', payee: '', checker: '',
    lines: goods.map(([c, qty, price]) => {
      const t = code(c);
      const a = computeLine({ quantity: String(qty), unitPrice: String(price), priceIncludesTax: true, taxRate: t.taxRate });
      return { goodsName: `*${t.shortName}*${t.name}`, taxCode: t.code, spec: '', unit: t.shortName === '建筑服务' ? '项' : '台班', quantity: String(qty), unitPrice: String(price), priceIncludesTax: true, taxRate: t.taxRate, policy: t.policy as InvoiceSaveBody['lines'][number]['policy'], lineProperty: 0, amountExcl: a.amountExcl, tax: a.tax, amountIncl: a.amountIncl };
    }),
  };
}

export async function seedInvoices(ctx: SeedContext): Promise<void> {
  const db = flat(ctx.db);
  const handle: Db = { kysely: db, dialect: 'sqlite', close: async () => undefined };
  const app = { db: handle, oplog: new OperationLogService(handle), synclog: new SyncLogService(handle), log: console } as unknown as FastifyInstance;
  const clerk = ctx.users.find((u) => u.loginName === 'demo5') ?? ctx.users[0]!;
  const req = { user: { id: clerk.id, name: clerk.name, loginName: clerk.loginName, roles: clerk.roles }, ip: '127.0.0.1' } as unknown as FastifyRequest;
  const at = new Date(ctx.now.getTime() - 45 * 86400_000).toISOString();
  await reference(db, at, clerk);
  // The failed invoices are scripted by order number: the buyers stay ordinary companies.
  const failOrders: Record<string, 22 | 24> = {};
  const settings = new InvoiceSettings(app, { failOrders });
  await approvedRequests(ctx, db, settings);

  const saved = async (b: InvoiceSaveBody) => saveEntry(db, req, app.oplog, await settings.row(db), b);
  const save = async (b: InvoiceSaveBody) => (await saved(b)).id;
  const failing = async (status: 22 | 24, b: InvoiceSaveBody) => {
    const { id, orderNo } = await saved(b);
    failOrders[orderNo] = status;
    return id;
  };
  // Requests entered by the clerk, left to issue: paper special, paper ordinary, 数电.
  await save(entry(4, InvoiceKind.s, [[9, '12.5', 4380], [8, '20', 1500]], 5));
  await save(entry(5, InvoiceKind.c, [[8, '18', 1800]], 5));
  await save(entry(6, InvoiceKind.pc, [[6, '1', 85000]], 0));
  const invalid = await save(entry(5, InvoiceKind.c, [[8, '2', 1800]], 5));
  // Issued through the simulator: 数电 (blue, for red-letter), paper (for cancellation), failures.
  const issued = [
    await save(entry(0, InvoiceKind.bs, [[0, '1', 1_250_000], [5, '1', 36_000]], 1)),
    await save(entry(1, InvoiceKind.bs, [[0, '1', 2_860_000]], 0)),
    await save(entry(3, InvoiceKind.pc, [[6, '2', 45_000]], 3)),
    await save(entry(2, InvoiceKind.bs, [[3, '1', 380_000]], 2)),
    await save(entry(4, InvoiceKind.s, [[9, '30', 4380]], 5)),
    await save(entry(5, InvoiceKind.c, [[8, '10', 1800]], 5)),
    await save(entry(5, InvoiceKind.s, [[8, '6', 1800]], 5)),
  ];
  const failedCreate = await failing(22, entry(7, InvoiceKind.bs, [[0, '1', 96_000]], 4));
  const failedSign = await failing(24, entry(8, InvoiceKind.bs, [[0, '1', 128_000]], 4));
  const issuing = new IssuingService(app, settings);
  await issuing.issue(req, [...issued, failedCreate, failedSign]);
  for (let round = 0; round < 3; round++) await issuing.poll({ ids: [...issued, failedCreate, failedSign] });
  await new RetryService(app, settings, issuing).invalidate(req, invalid, '客户已取消该笔业务');

  const cancellation = new CancellationService(app, settings);
  await cancellation.cancel(req, [issued[5]!], '购方名称开具错误');
  await cancellation.refresh([issued[5]!]);
  await cancellation.cancel(req, [issued[6]!], '开票金额有误，重新开具');

  // Red-letter: one red invoice issued (whole invoice, 01), one draft of ours, one buyer's awaiting us.
  const red = new RedConfirmService(app, settings);
  const r1 = await red.create(req, issued[3]!);
  await red.save(req, { id: r1.id, redReason: 1, vatUsage: 4, lines: [] });
  await red.apply(req, r1.id);
  await red.refresh();
  const rid = (await db.selectFrom('invoice_red_confirms').select('red_invoice_id').where('id', '=', r1.id).executeTakeFirst())?.red_invoice_id;
  if (rid) for (let round = 0; round < 3; round++) await issuing.poll({ ids: [rid] });
  await red.create(req, issued[1]!);
  const blue = await db.selectFrom('invoices').select(['digital_no']).where('id', '=', issued[0]!).executeTakeFirstOrThrow();
  await seedBuyerRedConfirm({ db: handle, synclog: app.synclog }, { blueInvoiceNo: blue.digital_no, sellerTaxNumber: SELLER.taxNo, redReason: 4, vatUsage: 1 }, { delayMs: 0 });
  await red.refresh();
  // Back to the normal pace of the simulator for the demo's own issuing.
  await db.updateTable('invoice_settings').set({ simulator_delay_ms: 3000 }).execute();
}
