/**
 * Outgoing invoices on the tender demo's order contracts (issue 17, 框架合同开票统计), after the
 * 'tender-contracts' seeder: under half the orders invoiced, partly or in full, mostly at once and some
 * in two instalments (进度款), the others not yet (the newest above all), and a few frame contracts
 * with an invoice issued on the frame itself (框架合同直接开票). Each invoice is a created (2) blue
 * 数电专票 to the contract's customer, issued after the contract was signed and not later than today, with one line whose 单价 × 数量 is its 价税合计
 * and whose tax is computed as the entry form computes it (computeLine, price including tax); an
 * order's invoices never add up to more than its amount. They get their default allocations (project
 * and contract) through the issuing hook (`allocateOnCreated`), as any created invoice does, so
 * 合同开票统计, 项目开票统计 and 发票台账 count them too. Each has the files an issued invoice has: its PDF
 * (and XML), rendered by the tax simulator's own renderers from the invoice's fields and line as stored
 * (number, issue time), kept as the issuing poll keeps the files the service returns (storeResultFiles).
 * Own RNG, so the other seeders' draws do not change.
 */
import { ContractType, computeLine, InvoiceColour, InvoiceKind, InvoiceStatus, SourceKind } from '@zhyy/shared';
import type { InvoiceLineTable, InvoiceTable } from '../modules/invoice/tables.js';
import { shanghaiTime } from '../integrations/tax/simulator/numbers.js';
import { renderInvoiceXml } from '../integrations/tax/simulator/xml.js';
import type { TaxInvoiceFile } from '../integrations/tax/types.js';
import { allocateOnCreated } from '../modules/invoice/apportionment/store.js';
import { storeResultFiles, toTaxRequest } from '../modules/invoice/issuing/taxmap.js';
import { demoId } from '../platform/ids.js';
import { bulkInsert } from './bulk.js';
import type { SeedContext } from './context.js';
import { TAX_CODES } from './invoiceData.js';
import { Rng } from './rng.js';
import '../modules/invoice/apportionment/tables.js';

// pdf-lib and fontkit load when the demo is written, not with every start (main.ts imports the seed; issue 30).
const renderInvoicePdf: typeof import('../integrations/tax/pdf/render.js').renderInvoicePdf = async (...args) => (await import('../integrations/tax/pdf/render.js')).renderInvoicePdf(...args);

const SEED = 20261718;
const DAY = 86_400_000;
const SHANGHAI_MS = 8 * 3600_000;
const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const addDays = (d: string, n: number) => day(Date.parse(`${d}T00:00:00Z`) + n * DAY);
const daysBetween = (a: string, b: string) => Math.round((Date.parse(`${b}T00:00:00Z`) - Date.parse(`${a}T00:00:00Z`)) / DAY);

/** Splits `total` 分 into `n` instalments of whole 元, each at least a tenth of the total. */
function instalments(rng: Rng, total: number, n: number): number[] {
  const weights = Array.from({ length: n }, () => 1 + rng.next() * 2);
  const sum = weights.reduce((a, w) => a + w, 0);
  const out = weights.map((w) => Math.floor((total * w) / sum / 100) * 100);
  out[out.length - 1]! += total - out.reduce((a, x) => a + x, 0);
  return out;
}

/** The files the tax simulator returns for an issued invoice (simulator/progress.ts), from the invoice as stored. */
export async function issuedFiles(inv: InvoiceTable, lines: readonly InvoiceLineTable[]): Promise<TaxInvoiceFile[]> {
  const req = toTaxRequest(inv, lines);
  const printed = { invoiceNo: inv.invoice_no, invoiceCode: inv.invoice_code || null, issuedAt: shanghaiTime(new Date(inv.issued_at!)) };
  return [
    { type: 'pdf', fileName: `${inv.invoice_no}.pdf`, content: Buffer.from(await renderInvoicePdf(req, printed)) },
    { type: 'xml', fileName: `${inv.invoice_no}.xml`, content: Buffer.from(renderInvoiceXml(req, printed), 'utf8') },
  ];
}

interface Target {
  id: string;
  code: string;
  name: string;
  customer: string;
  project_id: string | null;
  signed_on: string | null;
}

export async function seedTenderInvoices(ctx: SeedContext): Promise<void> {
  const { db, now } = ctx;
  const rng = new Rng(SEED);
  const today = day(now.getTime() + SHANGHAI_MS);
  const contracts = await db
    .selectFrom('contracts')
    .select(['id', 'code', 'name', 'customer', 'project_id', 'signed_on', 'contract_type', 'parent_id', 'amount'])
    .where('code', 'like', 'TB-%')
    .where('contract_type', 'in', [ContractType.frame, ContractType.order])
    .orderBy('code')
    .execute();
  if (!contracts.length) return;
  const settings = await db.selectFrom('invoice_settings').selectAll().executeTakeFirstOrThrow();
  const buyers = new Map((await db.selectFrom('invoice_buyers').selectAll().execute()).map((b) => [b.name, b]));
  const clerk = ctx.users.find((u) => u.loginName === 'demo5') ?? ctx.users[0]!;
  const works = TAX_CODES[0]!;

  const invoices: InvoiceTable[] = [];
  const lines: InvoiceLineTable[] = [];
  const issue = (c: Target, amountIncl: number, date: string, what: string) => {
    const i = invoices.length + 1;
    const minute = rng.int(9 * 60, 17 * 60);
    const issuedAt = new Date(Date.parse(`${date}T00:00:00Z`) + minute * 60_000 - SHANGHAI_MS).toISOString();
    const stamp = `${date.slice(2).replace(/-/g, '')}${String(Math.floor(minute / 60)).padStart(2, '0')}${String(minute % 60).padStart(2, '0')}00`;
    const no = `${date.slice(2, 4)}322${String(i).padStart(15, '0')}`;
    const unitPrice = (amountIncl / 100).toFixed(2);
    const a = computeLine({ quantity: '1', unitPrice, priceIncludesTax: true, taxRate: works.taxRate });
    const b = buyers.get(c.customer);
    const id = demoId(`tender-invoice:${i}`);
    invoices.push({
      id, order_no: `KP${stamp}${String(i).padStart(6, '0')}`, serial_no: `${stamp}${String(i).padStart(8, '0')}`, kind: InvoiceKind.bs, colour: InvoiceColour.blue,
      status: InvoiceStatus.created, source: SourceKind.temp, request_work_id: null, project_id: c.project_id, contract_id: c.id, buyer_id: b?.id ?? null,
      buyer_name: b?.name ?? c.customer, buyer_tax_no: b?.tax_no ?? '', buyer_address: b?.address ?? '', buyer_phone: b?.phone ?? '', buyer_bank: b?.bank ?? '',
      buyer_account: b?.account ?? '', buyer_email: b?.email ?? '', buyer_mobile: '', seller_name: settings.seller_name, seller_tax_no: settings.seller_tax_no,
      seller_address: settings.seller_address, seller_phone: settings.seller_phone, seller_bank: settings.seller_bank, seller_account: settings.seller_account,
      remark: `合同编号：${c.code}；${what}`, clerk: settings.clerk, payee: settings.payee, checker: settings.checker, special_factor: 0, construction_site: '', construction_project: '',
      red_reason: null, blue_invoice_id: null, blue_invoice_no: '', red_confirm_id: null, invoice_no: no, invoice_code: '', digital_no: no, issued_at: issuedAt, issue_date: date,
      amount_excl: a.amountExcl, tax: a.tax, amount_incl: a.amountIncl, failure_cause: '', status_message: '开票成功', invalid: 0, invalid_reason: '', retry_count: 0,
      submitted_at: issuedAt, next_poll_at: null, poll_count: 1, created_by: clerk.id, created_by_name: clerk.name, updated_by_name: clerk.name, created_at: issuedAt, updated_at: issuedAt,
    });
    lines.push({
      id: demoId(`tender-invoice-line:${i}`), invoice_id: id, line_no: 1, goods_name: `*${works.shortName}*${works.name}`, tax_code: works.code, spec: '', unit: '项', quantity: '1',
      unit_price: unitPrice, price_includes_tax: 1, tax_rate: works.taxRate, policy: works.policy, line_property: 0, amount_excl: a.amountExcl, tax: a.tax, amount_incl: a.amountIncl,
    });
  };
  /** Instalment dates: after signing (a month at least), in order, none after today. */
  const dates = (signed: string, n: number): string[] | null => {
    const span = daysBetween(signed, today);
    if (span < 30) return null;
    const ds = Array.from({ length: n }, () => addDays(signed, rng.int(30, span))).sort();
    return ds;
  };

  for (const o of contracts.filter((c) => c.contract_type === ContractType.order)) {
    const amount = Number(o.amount);
    const r = rng.next();
    // Over half not invoiced yet; a fifth in full; the rest in part (30–90 %). Mostly one invoice, some
    // two instalments: each invoice has a rendered PDF (~50–100 ms), so the count keeps the seed fast.
    if (r < 0.55 || !o.signed_on) continue;
    const total = r < 0.75 ? amount : Math.floor((amount * rng.int(30, 90)) / 100 / 100) * 100;
    const n = Math.min(rng.chance(0.15) ? 2 : 1, Math.max(1, Math.floor(total / 1_000_000)));
    const ds = dates(o.signed_on, n);
    if (!ds || total <= 0) continue;
    instalments(rng, total, n).forEach((x, k) => issue(o, x, ds[k]!, `第${k + 1}期进度款`));
  }
  // About one frame in six: a 技术服务 / 预付 invoice issued on the frame contract itself.
  for (const f of contracts.filter((c) => c.contract_type === ContractType.frame)) {
    if (!f.signed_on || !rng.chance(0.17)) continue;
    const ds = dates(f.signed_on, 1);
    if (!ds) continue;
    issue(f, Math.floor((Number(f.amount) * rng.int(1, 5)) / 100 / 100) * 100, ds[0]!, '框架协议预付款');
  }
  // Test volumes (three frames) draw too few to be sure of one: the first frame always has one.
  const first = contracts.find((c) => c.contract_type === ContractType.frame);
  if (first?.signed_on && !invoices.some((i) => i.contract_id === first.id)) {
    const ds = dates(first.signed_on, 1);
    if (ds) issue(first, Math.floor((Number(first.amount) * 2) / 100 / 100) * 100, ds[0]!, '框架协议预付款');
  }
  await bulkInsert(db, 'invoices', invoices);
  await bulkInsert(db, 'invoice_lines', lines);
  const actor = { id: clerk.id, name: clerk.name };
  for (const inv of invoices) await allocateOnCreated(db, inv.id, actor);
  for (const [k, inv] of invoices.entries()) await storeResultFiles(db, inv.id, { files: await issuedFiles(inv, [lines[k]!]) });
}
