/**
 * 投标管理 demo scans (issue 17, "Demo data"): the pages of the demo contracts and the scans of titles
 * and certificates, stored through the attachment layer (storeAttachment into ctx.storage, rows in the
 * seed's transaction) like an upload. Runs after the contract and people seeders, with its own RNG.
 *
 * - Contracts: one single-page PDF per page (seed/scan-pdf.ts): the page type as heading, the contract's
 *   number, name, parties and the facts of that page (period, amount, signing day and seals, order of
 *   which frame, acceptance day). Every required page, except: the 验收证书 only once the contract has a
 *   竣工验收 day, and one contract in twelve lacks one or two other required pages — so the list still
 *   shows 缺N页 for some. About a third also keep their 审定单.
 * - Certificates: nine in ten with a scan, a PDF naming holder, kind, number and validity, or now and
 *   then a photographed JPEG; titles: nine in ten with a scan, a JPEG. The images are a few templates
 *   drawn once (seed/scan-image.ts) and reused.
 *
 * Fast by design: one font subset for every page, a page written in microseconds, a few stores at once.
 */
import { AttachmentType, ContractType, REQUIRED_PAGES } from '@zhyy/shared';
import { storeAttachment, type AttachmentStore } from '../modules/tender/attachment/attachments.js';
import { COMPANY_NAME } from './company.js';
import type { SeedContext } from './context.js';
import { Rng } from './rng.js';
import { certificateImages, titleImages } from './scan-image.js';
import { circle, PAGE, ScanPdf, type TextLine } from './scan-pdf.js';
import '../modules/tender/tables.js';
import '../modules/tender/people/tables.js';

const SEED = 20261723;
const RED = [0.8, 0.1, 0.1] as const;

const yuan = (fen: number) => `人民币 ${(fen / 100).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })} 元`;

interface ContractFacts {
  id: string; code: string; name: string; customer: string; contract_type: number; amount: number;
  signed_on: string | null; work_from: string | null; work_to: string | null; accepted_on: string | null; parent_code: string | null;
}

/** The text lines of one contract page below its heading, and whether it carries the seals. */
function contractLines(c: ContractFacts, kind: number): { lines: string[]; seals: boolean } {
  const head = [`合同编号：${c.code}`, `合同名称：${c.name}`, `发包人（甲方）：${c.customer}`, `承包人（乙方）：${COMPANY_NAME}`];
  switch (kind) {
    case 2111: case 2211: return { lines: [...head, `签订日期：${c.signed_on ?? ''}`], seals: false };
    case 2112: case 2212: return { lines: [...head, `计划开工日期：${c.work_from ?? ''}`, `计划竣工日期：${c.work_to ?? ''}`], seals: false };
    case 2113: case 2213: return { lines: [...head, `合同金额：${yuan(c.amount)}`, '结算方式：按月计量，按进度付款'], seals: false };
    case 2114: case 2214: return { lines: [...head, `签订日期：${c.signed_on ?? ''}`, '甲方（盖章）：', '乙方（盖章）：'], seals: true };
    case 2115: case 2215: {
      const share = [0.32, 0.41, 0.12, 0.06, 0.09];
      const names = ['人工费', '材料费', '机械使用费', '企业管理费', '税金'];
      return { lines: [...head, ...names.map((n, i) => `${n}：${yuan(Math.round(c.amount * share[i]!))}`)], seals: false };
    }
    case 2310: return { lines: [...head, `所属框架合同：${c.parent_code ?? ''}`, `订单金额：${yuan(c.amount)}`, `下单日期：${c.signed_on ?? ''}`], seals: true };
    case 2900: return { lines: [...head, `审定金额：${yuan(Math.round(c.amount * 0.97))}`, '审定单位：江苏中审工程咨询有限公司'], seals: true };
    default: return { lines: [...head, `竣工验收日期：${c.accepted_on ?? ''}`, '验收结论：合格'], seals: true };
  }
}

function pageContent(pdf: ScanPdf, heading: string, lines: string[], seals: string[]): string {
  const text: TextLine[] = [
    { text: heading, x: 'center', y: PAGE.h - 110, size: 22 },
    ...lines.map((t, i) => ({ text: t, x: 72, y: PAGE.h - 180 - i * 30, size: 12 })),
  ];
  // A scan: off-white paper, a frame, the seals in red.
  const parts = ['0.97 0.96 0.93 rg 0 0 595.28 841.89 re f', '0.3 0.3 0.3 RG 1 w 48 48 499.28 745.89 re S', pdf.text(text)];
  seals.forEach((s, i) => {
    const x = 200 + i * 200;
    parts.push(`${RED.join(' ')} RG 2 w`, circle(x, 200, 52), pdf.text([{ text: s, x: x - pdf.width(s, 10) / 2, y: 196, size: 10, color: RED }]));
  });
  return parts.join('\n');
}

/** A few stores at once (the object writes overlap; the rows go one by one through the transaction). */
async function storeAll(jobs: (() => Promise<unknown>)[], width = 6): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: width }, async () => {
    while (next < jobs.length) await jobs[next++]!();
  }));
}

export async function seedTenderScans(ctx: SeedContext): Promise<void> {
  const { db } = ctx;
  if (ctx.tenderScans === false) return;
  const rng = new Rng(SEED);
  const target: AttachmentStore = { storage: ctx.storage, db, inTransaction: true };
  const contracts: ContractFacts[] = await db
    .selectFrom('contracts as c')
    .leftJoin('contracts as p', 'p.id', 'c.parent_id')
    .select(['c.id', 'c.code', 'c.name', 'c.customer', 'c.contract_type', 'c.amount', 'c.signed_on', 'c.work_from', 'c.work_to', 'c.accepted_on', 'p.code as parent_code'])
    .where('c.is_temp', '=', 0)
    .orderBy('c.code')
    .execute();
  const certs = await db
    .selectFrom('tender_certificates as c')
    .innerJoin('users as u', 'u.id', 'c.user_id')
    .innerJoin('tender_cert_kinds as k', 'k.id', 'c.kind_id')
    .select(['c.id', 'u.name as holder', 'k.name as kind', 'c.level', 'c.speciality', 'c.cert_no', 'c.issuer', 'c.valid_from', 'c.valid_to', 'c.company'])
    .orderBy('c.id')
    .execute();
  const titles = await db.selectFrom('tender_titles').select(['id', 'cert_no']).orderBy('id').execute();

  // ---- What each page says, then one font for all of them ----
  const pages: { ownerKind: string; ownerId: string; kind: number; name: string; heading: string; lines: string[]; seals: string[] }[] = [];
  contracts.forEach((c, i) => {
    const required = REQUIRED_PAGES[c.contract_type] ?? [];
    const lacking = new Set<number>();
    if (!c.accepted_on) lacking.add(AttachmentType.acceptanceCertificate);
    // One contract in twelve (by number, so at any volume) lacks one or two other pages.
    if (i % 12 === 5) {
      const others = required.filter((k) => k !== AttachmentType.acceptanceCertificate);
      lacking.add(rng.pick(others));
      if (others.length > 2 && rng.chance(0.4)) lacking.add(rng.pick(others));
    }
    const kinds = required.filter((k) => !lacking.has(k));
    if (c.contract_type !== ContractType.order && rng.chance(0.2)) kinds.push(c.contract_type === ContractType.frame ? 2115 : 2215);
    if (rng.chance(0.35)) kinds.push(AttachmentType.approvalBill);
    for (const kind of kinds) {
      const label = AttachmentType.label(kind);
      const { lines, seals } = contractLines(c, kind);
      pages.push({ ownerKind: 'contract', ownerId: c.id, kind, name: `${c.code}-${label}.pdf`, heading: label, lines, seals: seals ? ['合同专用章', kind === 2901 || kind === 2900 ? '验收专用章' : '合同专用章'] : [] });
    }
  });
  const images: { ownerKind: string; ownerId: string; name: string; bytes: Buffer }[] = [];
  const [certImages, titleImages_] = await Promise.all([certificateImages(), titleImages()]);
  for (const c of certs) {
    if (!rng.chance(0.9)) continue;
    if (rng.chance(0.15)) {
      const img = rng.pick(certImages);
      images.push({ ownerKind: 'certificate', ownerId: c.id, name: `${c.cert_no}-${img.name}`, bytes: img.bytes });
      continue;
    }
    const validity = c.valid_to ? `有效期：${c.valid_from} 至 ${c.valid_to}` : `发证日期：${c.valid_from}（长期有效）`;
    pages.push({
      ownerKind: 'certificate', ownerId: c.id, kind: 0, name: `${c.cert_no}-${c.kind}.pdf`, heading: c.kind, seals: [c.issuer.slice(-6)],
      lines: [`姓名：${c.holder}`, `证书编号：${c.cert_no}`, ...(c.level ? [`级别：${c.level}`] : []), ...(c.speciality ? [`专业：${c.speciality}`] : []), validity, `注册单位：${c.company || COMPANY_NAME}`, `发证机关：${c.issuer}`],
    });
  }
  for (const t of titles) {
    if (!rng.chance(0.9)) continue;
    const img = rng.pick(titleImages_);
    images.push({ ownerKind: 'title', ownerId: t.id, name: `${t.cert_no}-职称证书${img.name}`, bytes: img.bytes });
  }

  // Two fonts, each subset to its pages' characters (contract pages and certificates share few), so a
  // page carries ~40 KB of font rather than the union's.
  const writers = new Map<string, ScanPdf>();
  for (const group of ['contract', 'certificate']) {
    const chars = new Set<string>();
    for (const p of pages) if (p.ownerKind === group) for (const s of [p.heading, ...p.lines, ...p.seals]) for (const ch of s) chars.add(ch);
    if (chars.size) writers.set(group, await ScanPdf.create([...chars].join('')));
  }
  const jobs: (() => Promise<unknown>)[] = [
    ...pages.map((p) => () => {
      const pdf = writers.get(p.ownerKind)!;
      return storeAttachment(target, { ownerKind: p.ownerKind, ownerId: p.ownerId, kind: p.kind, name: p.name, body: pdf.page(pageContent(pdf, p.heading, p.lines, p.seals)), by: '系统' });
    }),
    ...images.map((i) => () => storeAttachment(target, { ownerKind: i.ownerKind, ownerId: i.ownerId, kind: 0, name: i.name, body: i.bytes, by: '系统' })),
  ];
  await storeAll(jobs);
}
