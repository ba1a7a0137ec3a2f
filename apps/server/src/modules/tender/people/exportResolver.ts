/**
 * 证书文件 (issue 17): the check of chosen qualification certificates and titles on a tender's deadline
 * (certProblemOn: begun by then and not ended before it; a scan present) and the export resolver
 * 'certificate': each certificate or title a section titled "持证人 证书 编号", its scans in upload order.
 */
import type { FastifyInstance } from 'fastify';
import { certProblemOn, TitleLevel, type CertificateCheckRow, type TenderAttachment } from '@zhyy/shared';
import { notFound } from '../../../platform/envelope.js';
import { listAttachments, openAttachment } from '../attachment/attachments.js';
import { ExportInputError, type ExportMime, type ExportSection } from '../export/types.js';
import './tables.js';

type Db = FastifyInstance['db']['kysely'];
export type CertItem = { kind: 'certificate' | 'title'; id: string };

/** A check row before its scans are counted and its problems found. */
type Facts = Omit<CertificateCheckRow, 'scanCount' | 'problems'>;

async function factsOf(db: Db, certificateIds: readonly string[], titleIds: readonly string[]): Promise<Map<string, Facts>> {
  const out = new Map<string, Facts>();
  if (certificateIds.length) {
    const rows = await db
      .selectFrom('tender_certificates as c')
      .innerJoin('users as u', 'u.id', 'c.user_id')
      .innerJoin('tender_cert_kinds as k', 'k.id', 'c.kind_id')
      .select(['c.id', 'u.name as holder', 'k.name as kind', 'c.level', 'c.speciality', 'c.cert_no', 'c.valid_from', 'c.valid_to'])
      .where('c.id', 'in', [...certificateIds])
      .execute();
    for (const r of rows)
      out.set(`certificate:${r.id}`, { kind: 'certificate', id: r.id, holderName: r.holder, name: r.speciality ? `${r.kind}（${r.speciality}）` : r.kind, level: r.level, certNo: r.cert_no, validFrom: r.valid_from, validTo: r.valid_to });
  }
  if (titleIds.length) {
    const rows = await db
      .selectFrom('tender_titles as t')
      .innerJoin('users as u', 'u.id', 't.user_id')
      .select(['t.id', 'u.name as holder', 't.title_name', 't.level', 't.cert_no', 't.issue_date'])
      .where('t.id', 'in', [...titleIds])
      .execute();
    for (const r of rows)
      out.set(`title:${r.id}`, { kind: 'title', id: r.id, holderName: r.holder, name: r.title_name, level: TitleLevel.label(r.level), certNo: r.cert_no, validFrom: r.issue_date, validTo: null });
  }
  return out;
}

async function scansOf(db: Db, items: readonly CertItem[]): Promise<Map<string, TenderAttachment[]>> {
  const out = new Map<string, TenderAttachment[]>();
  for (const kind of ['certificate', 'title'] as const) {
    const ids = items.filter((i) => i.kind === kind).map((i) => i.id);
    for (const a of await listAttachments(db, kind, ids)) out.set(`${kind}:${a.ownerId}`, [...(out.get(`${kind}:${a.ownerId}`) ?? []), a]);
  }
  return out;
}

export const itemsOf = (b: { certificateIds: string[]; titleIds: string[] }): CertItem[] => [
  ...b.certificateIds.map((id) => ({ kind: 'certificate' as const, id })),
  ...b.titleIds.map((id) => ({ kind: 'title' as const, id })),
];

/** The check of each chosen certificate and title on the deadline, certificates first, in the order chosen. */
export async function certificateCheck(db: Db, b: { certificateIds: string[]; titleIds: string[]; deadline: string }): Promise<CertificateCheckRow[]> {
  const items = itemsOf(b);
  const [facts, scans] = await Promise.all([factsOf(db, b.certificateIds, b.titleIds), scansOf(db, items)]);
  return items.map((i) => {
    const f = facts.get(`${i.kind}:${i.id}`);
    if (!f) throw notFound(i.kind === 'certificate' ? '所选证书不存在或已删除，请重新选择' : '所选职称不存在或已删除，请重新选择');
    const scanCount = scans.get(`${i.kind}:${i.id}`)?.length ?? 0;
    const problems: string[] = [];
    if (f.kind === 'certificate') {
      const p = certProblemOn(f, b.deadline);
      if (p) problems.push(p);
    } else if (f.validFrom && f.validFrom > b.deadline) problems.push(`职称${f.validFrom}才取得，投标截止日${b.deadline}尚未取得`);
    if (!scanCount) problems.push('未上传扫描件');
    return { ...f, scanCount, problems };
  });
}

export const sectionTitle = (f: Pick<Facts, 'holderName' | 'name' | 'level' | 'certNo'>) => [f.holderName, f.level ? `${f.name} ${f.level}` : f.name, f.certNo].filter(Boolean).join(' ');

/** Registers the resolver 'certificate' with the export engine. */
export function registerCertificateResolver(app: FastifyInstance): void {
  app.tenderExports.register('certificate', async (_job, rows): Promise<ExportSection[]> => {
    const items: CertItem[] = rows.map((r) => ({ kind: r.item_kind === 'title' ? 'title' : 'certificate', id: r.item_id }));
    const db = app.db.kysely;
    const [facts, scans] = await Promise.all([
      factsOf(db, items.filter((i) => i.kind === 'certificate').map((i) => i.id), items.filter((i) => i.kind === 'title').map((i) => i.id)),
      scansOf(db, items),
    ]);
    return items.map((i, n) => {
      const f = facts.get(`${i.kind}:${i.id}`);
      if (!f) throw new ExportInputError(`证书「${rows[n]!.label}」已被删除，无法导出`);
      return {
        title: sectionTitle(f),
        files: (scans.get(`${i.kind}:${i.id}`) ?? []).map((a) => ({ name: a.fileName, mime: a.mime as ExportMime, open: async () => (await openAttachment(app, a.id)).stream })),
      };
    });
  });
}
