/**
 * 业绩文件 (issue 17): the performance check of chosen contracts for a tender (performanceProblems over
 * their stored pages, acceptance day and amount) and the export resolver 'performance': each contract a
 * section titled "编号 名称", its pages' files in binding order (CONTRACT_PAGES of its type, then upload
 * time), read from the tender attachment storage one at a time.
 */
import type { FastifyInstance } from 'fastify';
import { CONTRACT_PAGES, missingPages, performanceProblems, type PerformanceCheckBody, type PerformanceCheckRow } from '@zhyy/shared';
import { notFound } from '../../../platform/envelope.js';
import { listAttachments, openAttachment } from '../attachment/attachments.js';
import type { TenderAttachment } from '@zhyy/shared';
import { ExportInputError, type ExportMime, type ExportSection } from '../export/types.js';
import { CONTRACT_OWNER } from './pages.js';
import { exceptionsOfProjects } from './exceptions.js';
import '../tables.js';

type Db = FastifyInstance['db']['kysely'];

interface ContractFacts {
  id: string;
  contract_type: number;
  code: string;
  name: string;
  customer: string;
  amount: number | string;
  accepted_on: string | null;
  project_id: string | null;
}

async function contractsOf(db: Db, ids: readonly string[]): Promise<Map<string, ContractFacts>> {
  if (!ids.length) return new Map();
  const rows = await db
    .selectFrom('contracts')
    .select(['id', 'contract_type', 'code', 'name', 'customer', 'amount', 'accepted_on', 'project_id'])
    .where('id', 'in', [...ids])
    .where('is_temp', '=', 0)
    .execute();
  return new Map(rows.map((r) => [r.id, r as ContractFacts]));
}

/** A contract's pages in binding order: its type's page order, then upload time. */
export function pagesInOrder(contractType: number, files: readonly TenderAttachment[]): TenderAttachment[] {
  const order = CONTRACT_PAGES[contractType] ?? [];
  const rank = (k: number) => (order.indexOf(k as never) < 0 ? order.length : order.indexOf(k as never));
  return files
    .filter((f) => order.includes(f.kind as never))
    .map((f, i) => ({ f, i }))
    .sort((a, b) => rank(a.f.kind) - rank(b.f.kind) || a.i - b.i)
    .map((x) => x.f);
}

/** The check of each chosen contract, in the order chosen (404 when one no longer exists). */
export async function performanceCheck(db: Db, body: PerformanceCheckBody): Promise<PerformanceCheckRow[]> {
  const found = await contractsOf(db, body.contractIds);
  const files = await listAttachments(db, CONTRACT_OWNER, body.contractIds);
  // Each contract's project, its manager and the manager exceptions it is part of (issue 29 item 11).
  const projectIds = [...new Set([...found.values()].map((c) => c.project_id).filter((p): p is string => !!p))];
  const projects = projectIds.length
    ? await db.selectFrom('projects as p').leftJoin('users as u', 'u.id', 'p.manager_id').select(['p.id', 'p.code', 'u.name as manager_name']).where('p.id', 'in', projectIds).execute()
    : [];
  const exceptions = await exceptionsOfProjects(db, projectIds);
  return body.contractIds.map((id) => {
    const c = found.get(id);
    if (!c) throw notFound('所选合同不存在或已删除，请重新选择');
    const mine = pagesInOrder(c.contract_type, files.filter((f) => f.ownerId === id));
    const present = [...new Set(mine.map((f) => f.kind))];
    const amount = Number(c.amount);
    return {
      id,
      contractType: c.contract_type,
      code: c.code,
      name: c.name,
      customer: c.customer,
      amount,
      acceptedOn: c.accepted_on,
      presentPages: present,
      missingPages: missingPages(c.contract_type, present),
      fileCount: mine.length,
      projectCode: projects.find((p) => p.id === c.project_id)?.code ?? null,
      managerName: projects.find((p) => p.id === c.project_id)?.manager_name ?? '',
      managerExceptions: c.project_id ? exceptions.filter((e) => e.projectId === c.project_id || e.otherProjectId === c.project_id) : [],
      problems: performanceProblems({ contractType: c.contract_type, pages: present, acceptedOn: c.accepted_on, amount }, { onDay: body.deadline, years: body.years, thresholdFen: body.thresholdFen }),
    };
  });
}

const MIMES: readonly string[] = ['application/pdf', 'image/jpeg', 'image/png'];

/** Registers the resolver 'performance' with the export engine. */
export function registerPerformanceResolver(app: FastifyInstance): void {
  app.tenderExports.register('performance', async (_job, items): Promise<ExportSection[]> => {
    const ids = items.map((i) => i.item_id);
    const found = await contractsOf(app.db.kysely, ids);
    const files = await listAttachments(app.db.kysely, CONTRACT_OWNER, ids);
    return items.map((item) => {
      const c = found.get(item.item_id);
      if (!c) throw new ExportInputError(`合同「${item.label}」已被删除，无法导出`);
      const mine = pagesInOrder(c.contract_type, files.filter((f) => f.ownerId === c.id)).filter((f) => MIMES.includes(f.mime));
      return {
        title: `${c.code} ${c.name}`,
        files: mine.map((f) => ({ name: f.fileName, mime: f.mime as ExportMime, open: async () => (await openAttachment(app, f.id)).stream })),
      };
    });
  });
}
