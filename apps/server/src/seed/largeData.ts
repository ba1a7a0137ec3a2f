/**
 * The large demo mode's generator: invoice number i is a pure function of i (its own seeded random
 * stream), so a load is the same on every machine and can resume where it stopped. Five years of
 * issued invoices ending 2026-11-20: mostly 数电, some paper; mostly created, some cancelled or
 * canceling; about 4 % red invoices, each against an earlier blue one.
 */
import { InvoiceColour, InvoiceKind, InvoiceStatus, SourceKind } from '@zhyy/shared';
import { demoId } from '../platform/ids.js';
import { creditCode, TAX_CODES } from './invoiceData.js';
import { Rng } from './rng.js';

export const LARGE_SEED = 20261121;
export const LARGE_BUYERS = 600;
export const LARGE_PROJECTS = 150;
export const LARGE_CONTRACTS = 300;
const END_DAY = Date.UTC(2026, 10, 20);
const SPAN_DAYS = 5 * 365;

const pad = (n: number, w: number) => String(n).padStart(w, '0');
const day = (t: number) => new Date(t).toISOString().slice(0, 10);
const CITIES = ['南京', '苏州', '无锡', '常州', '扬州', '南通', '徐州', '镇江', '泰州', '盐城'];
const TRADES = ['建设工程', '市政工程', '路桥建设', '水务发展', '城市更新', '交通投资', '环境科技', '产业园开发', '轨道交通', '能源服务'];
const PLACES = ['江北新区', '高新区', '经开区', '滨江片区', '老城区', '临空经济区', '科学城', '湖西新城'];
const WORKS = ['道路改造', '综合管廊', '雨污分流', '景观提升', '桥梁维修', '地铁配套', '厂房建设', '安置房'];

export const largeBuyerId = (k: number) => demoId(`large-buyer:${k}`);
export const largeProjectId = (k: number) => demoId(`large-project:${k}`);
export const largeContractId = (k: number) => demoId(`large-contract:${k}`);
export const largeInvoiceId = (i: number) => demoId(`large-invoice:${i}`);

export function largeBuyer(k: number) {
  const r = new Rng(LARGE_SEED + 17 * k);
  const city = CITIES[k % CITIES.length]!;
  const name = `${city}${TRADES[Math.floor(k / CITIES.length) % TRADES.length]}${k >= 100 ? `第${Math.floor(k / 100) + 1}` : ''}有限公司`;
  const first17 = `9132${pad(r.int(0, 9999), 4)}MA${pad(k, 4)}${'ABCDEFGHJK'[r.int(0, 9)]}${pad(r.int(0, 999), 3)}`.slice(0, 17);
  return { id: largeBuyerId(k), name, taxNo: creditCode(first17) };
}

export function largeProject(k: number) {
  return { id: largeProjectId(k), code: `XMLG-${pad(k + 1, 5)}`, name: `${CITIES[k % CITIES.length]}${PLACES[k % PLACES.length]}${WORKS[Math.floor(k / 8) % WORKS.length]}（${k + 1}期）`, temp: k % 15 === 14 };
}

export function largeContract(k: number) {
  const p = k % LARGE_PROJECTS;
  return { id: largeContractId(k), code: `HTLG-${pad(k + 1, 5)}`, name: `${largeProject(p).name}合同${k >= LARGE_PROJECTS ? '（二）' : ''}`, projectId: largeProjectId(p), type: k % 7 === 0 ? 1 : k % 5 === 0 ? 3 : 2 };
}

const RATES = ['0.09', '0.09', '0.09', '0.06', '0.06', '0.13', '0.03'];

export interface LargeInvoice {
  i: number;
  id: string;
  day: string;
  kind: number;
  colour: number;
  status: number;
  source: number;
  buyer: number;
  project: number;
  contract: number | null;
  amountExcl: number;
  tax: number;
  taxRate: string;
  invoiceNo: string;
  invoiceCode: string;
  digitalNo: string;
  blue: { id: string; no: string } | null;
  creator: number;
  minute: number;
}

/** Invoice number i (0-based) of the large mode. */
export function largeInvoice(i: number): LargeInvoice {
  const r = new Rng(LARGE_SEED * 31 + i * 7919);
  const red = i > 1000 && r.chance(0.04);
  if (red) {
    const blue = largeInvoice(i - r.int(1, 1000));
    if (blue.colour === InvoiceColour.blue && blue.status === InvoiceStatus.created) {
      const share = r.int(10, 100) / 100;
      const after = Math.min(END_DAY, Date.parse(blue.day) + r.int(1, 60) * 86400_000);
      const amountExcl = -Math.max(1, Math.round(blue.amountExcl * share));
      return {
        ...blue, i, id: largeInvoiceId(i), day: day(after), colour: InvoiceColour.red, amountExcl, tax: Math.round(amountExcl * Number(blue.taxRate)),
        ...numbers(i, blue.kind), blue: { id: blue.id, no: blue.digitalNo || blue.invoiceNo }, minute: r.int(0, 599),
      };
    }
  }
  const u = r.next();
  const kind = u < 0.6 ? InvoiceKind.bs : u < 0.85 ? InvoiceKind.pc : u < 0.95 ? InvoiceKind.s : InvoiceKind.c;
  const paper = kind === InvoiceKind.c || kind === InvoiceKind.s;
  const s = r.next();
  const status = paper && s < 0.05 ? InvoiceStatus.cancelled : paper && s < 0.06 ? InvoiceStatus.canceling : InvoiceStatus.created;
  const v = r.next();
  const source = v < 0.5 ? SourceKind.i8 : v < 0.75 ? SourceKind.mis : v < 0.9 ? SourceKind.history : SourceKind.temp;
  const taxRate = r.pick(RATES);
  const amountExcl = Math.round(10 ** (4 + r.next() * 5));
  const project = r.int(0, LARGE_PROJECTS - 1);
  return {
    i, id: largeInvoiceId(i), day: day(END_DAY - r.int(0, SPAN_DAYS) * 86400_000), kind, colour: InvoiceColour.blue, status, source,
    buyer: Math.floor(r.next() ** 2 * LARGE_BUYERS), project, contract: r.chance(0.8) ? project + (r.chance(0.5) ? LARGE_PROJECTS : 0) : null,
    amountExcl, tax: Math.round(amountExcl * Number(taxRate)), taxRate, ...numbers(i, kind), blue: null, creator: r.int(0, 1000), minute: r.int(0, 599),
  };
}

function numbers(i: number, kind: number) {
  const digital = kind === InvoiceKind.bs || kind === InvoiceKind.pc;
  const no = `26${pad(32, 2)}${pad(i, 16)}`;
  return digital ? { invoiceNo: no, digitalNo: no, invoiceCode: '' } : { invoiceNo: pad(i % 1e8, 8), digitalNo: '', invoiceCode: `0320${pad(2020 + Math.floor(i / 1e8), 4)}${pad(Math.floor(i / 1e6) % 1e4, 4)}` };
}

export const taxCodeFor = (rate: string) => TAX_CODES.find((c) => c.taxRate === rate) ?? TAX_CODES[0]!;
