/** Numbers the simulated service hands out, and its clock in Asia/Shanghai (UTC+8, no DST). */
import { nextCounter, type SimDb } from './store.js';

const SHANGHAI_MS = 8 * 3600_000;

/** 'YYYY-MM-DD HH:mm:ss' in Asia/Shanghai. */
export const shanghaiTime = (d: Date) => new Date(d.getTime() + SHANGHAI_MS).toISOString().slice(0, 19).replace('T', ' ');
/** 'YYYY-MM-DD' in Asia/Shanghai. */
export const shanghaiDate = (d: Date) => shanghaiTime(d).slice(0, 10);
/** 'yyMMddHHmmss' in Asia/Shanghai. */
const stamp = (d: Date) => shanghaiTime(d).replace(/[- :]/g, '').slice(2);

const pad = (n: number, width: number) => String(n).padStart(width, '0');

/** The service's serial number (流水号): yyMMddHHmmss + 8 digits, 20 digits like Nuonuo's. */
export async function newSerialNo(sdb: SimDb, now: Date): Promise<string> {
  return `${stamp(now)}${pad((await nextCounter(sdb, 'serial', 1)) % 1e8, 8)}`;
}

/** A red-letter confirmation's id (billId): 'HZ' + yyMMddHHmmss + 6 digits. */
export async function newBillId(sdb: SimDb, now: Date): Promise<string> {
  return `HZ${stamp(now)}${pad((await nextCounter(sdb, 'bill', 1)) % 1e6, 6)}`;
}

/** The bureau's 红字确认单编号: 20 digits (year, region 11, channel 9, sequence). */
export async function newConfirmNo(sdb: SimDb, now: Date): Promise<string> {
  return `${shanghaiDate(now).slice(2, 4)}119${pad(await nextCounter(sdb, 'confirm', 1), 15)}`;
}

export interface IssuedNumbers {
  invoiceNo: string;
  invoiceCode: string | null;
  allElectronicNo: string | null;
}

/**
 * Numbers of an issued invoice. 数电 (9, 10): a 20-digit number (2 year digits, region 11,
 * channel 2, 15-digit sequence) that is also the invoice number. Paper (1, 2): a 10-digit code for
 * special invoices or a 12-digit one for ordinary invoices, and an 8-digit number.
 */
export async function newInvoiceNumbers(sdb: SimDb, kind: number, at: Date): Promise<IssuedNumbers> {
  const yy = shanghaiDate(at).slice(2, 4);
  if (kind === 9 || kind === 10) {
    const no = `${yy}112${pad(await nextCounter(sdb, 'digital', 1), 15)}`;
    return { invoiceNo: no, invoiceCode: null, allElectronicNo: no };
  }
  const seq = pad((await nextCounter(sdb, `paper-${kind}`, 1)) % 1e8, 8);
  const invoiceCode = kind === 2 ? `1100${yy}1130` : `0110${yy}100104`;
  return { invoiceNo: seq, invoiceCode, allElectronicNo: null };
}
