/**
 * Time in the simulated service: an invoice's status follows from when its phase ends (next_at),
 * so results "arrive" after the delay whoever asks and whenever, across restarts. Each transition
 * is written with a guard on the old status, so concurrent readers never apply one twice.
 */
import { InvoiceStatus } from '@zhyy/shared';
import { STATUS_MESSAGES } from '../states.js';
import type { TaxInvoiceFile, TaxInvoiceRequest, TaxInvoiceResult, TaxInvoiceStatus } from '../types.js';
import { newInvoiceNumbers, shanghaiTime } from './numbers.js';
import type { InvoiceRow, SimDb } from './store.js';
import { renderInvoiceXml } from './xml.js';

export interface SimContext {
  sdb: SimDb;
  now: () => Date;
  delayMs: number;
  random: () => number;
  /** 0..1: share of attempts that fail. */
  failureRate: number;
  /** Order numbers that fail at submission with the given status (SimulatorOptions.failOrders). */
  failOrders?: Readonly<Record<string, 22 | 24>>;
  /** Scopes lookups to one seller, like Nuonuo's userTax; all sellers when absent. */
  taxNumber?: string;
  /** The company as the buyer of its incoming invoices (SimulatorOptions.company). */
  company?: { name: string; taxNumber: string };
  /** The periods' deadlines (ISO UTC) by the filing calendar (calendar.ts filingDeadlines: published > entered > computed). */
  deadlines: (periods: readonly string[]) => Promise<Map<string, string>>;
}

const PENDING = new Set<number>([InvoiceStatus.creating, InvoiceStatus.signing, InvoiceStatus.canceling]);
const plus = (iso: string, ms: number) => new Date(Date.parse(iso) + ms).toISOString();

/** What the row becomes at the end of its current phase (without side effects other than numbering). */
async function nextState(ctx: SimContext, row: InvoiceRow): Promise<Partial<InvoiceRow>> {
  const at = row.next_at;
  switch (row.status) {
    case InvoiceStatus.creating:
      return row.fail_stage === InvoiceStatus.creationFailed
        ? { status: InvoiceStatus.creationFailed }
        : { status: InvoiceStatus.signing, next_at: plus(at, ctx.delayMs) };
    case InvoiceStatus.signing: {
      if (row.fail_stage === InvoiceStatus.signFailed) return { status: InvoiceStatus.signFailed };
      if (row.invoice_no) return { status: InvoiceStatus.created, fail_cause: null };
      const req = JSON.parse(row.request) as TaxInvoiceRequest;
      const nums = await newInvoiceNumbers(ctx.sdb, row.kind, new Date(at));
      const issuedAt = shanghaiTime(new Date(at));
      const printed = { invoiceNo: nums.invoiceNo, invoiceCode: nums.invoiceCode, issuedAt };
      // pdf-lib and fontkit load with the first invoice printed, not at start-up.
      const { renderInvoicePdf } = await import('../pdf/render.js');
      const pdf = Buffer.from(await renderInvoicePdf(req, printed)).toString('base64');
      return {
        status: InvoiceStatus.created,
        fail_cause: null,
        invoice_no: nums.invoiceNo,
        invoice_code: nums.invoiceCode,
        all_electronic_no: nums.allElectronicNo,
        issued_at: issuedAt,
        pdf,
        xml: renderInvoiceXml(req, printed),
      };
    }
    case InvoiceStatus.canceling:
      return { status: InvoiceStatus.cancelled };
    default:
      return {};
  }
}

/** Brings one invoice up to the simulator's now; returns the current row. */
export async function advanceInvoice(ctx: SimContext, start: InvoiceRow): Promise<InvoiceRow> {
  let row = start;
  const now = ctx.now().getTime();
  while (PENDING.has(row.status) && Date.parse(row.next_at) <= now) {
    const change = await nextState(ctx, row);
    const updated = await ctx.sdb
      .updateTable('taxsim_invoices')
      .set({ ...change, updated_at: ctx.now().toISOString() })
      .where('serial_no', '=', row.serial_no)
      .where('status', '=', row.status)
      .where('next_at', '=', row.next_at)
      .executeTakeFirst();
    const fresh = await ctx.sdb.selectFrom('taxsim_invoices').selectAll().where('serial_no', '=', row.serial_no).executeTakeFirstOrThrow();
    if (Number(updated.numUpdatedRows) === 0 && fresh.status === row.status && fresh.next_at === row.next_at) break;
    row = fresh;
  }
  return row;
}

export function invoiceFiles(row: InvoiceRow): TaxInvoiceFile[] {
  if (row.status !== InvoiceStatus.created && row.status !== InvoiceStatus.canceling && row.status !== InvoiceStatus.cancelled) return [];
  const name = row.invoice_no ?? row.serial_no;
  const files: TaxInvoiceFile[] = [];
  if (row.pdf) files.push({ type: 'pdf', fileName: `${name}.pdf`, content: Buffer.from(row.pdf, 'base64') });
  if (row.xml) files.push({ type: 'xml', fileName: `${name}.xml`, content: Buffer.from(row.xml, 'utf8') });
  return files;
}

export function toResult(row: InvoiceRow): TaxInvoiceResult {
  const status = row.status as TaxInvoiceStatus;
  const failed = status === InvoiceStatus.creationFailed || status === InvoiceStatus.signFailed;
  const issued = row.invoice_no !== null && !failed && status !== InvoiceStatus.creating && status !== InvoiceStatus.signing;
  return {
    serialNo: row.serial_no,
    orderNo: row.order_no,
    status,
    statusMessage: failed && row.fail_cause ? `${STATUS_MESSAGES[status]}：${row.fail_cause}` : (STATUS_MESSAGES[status] ?? String(status)),
    ...(failed && row.fail_cause ? { failCause: row.fail_cause } : {}),
    kind: row.kind as TaxInvoiceResult['kind'],
    colour: row.colour as TaxInvoiceResult['colour'],
    ...(issued
      ? {
          invoiceNo: row.invoice_no!,
          ...(row.invoice_code ? { invoiceCode: row.invoice_code } : {}),
          ...(row.all_electronic_no ? { allElectronicNo: row.all_electronic_no } : {}),
          issuedAt: row.issued_at!,
          amountExcludingTax: Number(row.amount_excluding_tax),
          tax: Number(row.tax),
          amountIncludingTax: Number(row.amount_including_tax),
        }
      : {}),
    files: issued ? invoiceFiles(row) : [],
  };
}
