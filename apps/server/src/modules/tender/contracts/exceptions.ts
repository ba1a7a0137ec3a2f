/**
 * 项目经理例外 (issue 29 item 11): the lawful exceptions to the registered-manager rule, 注册建造师执业管理办法
 * （试行）第九条 (docs/tender.md "Registered builders' exceptions"). An exception lets a manager lead `project_id`
 * while they lead `other_project_id`, on a ground of the article (停工120天以上（含）且经建设单位同意, 同一工程相邻
 * 分段发包, 同一发包人分期施工), for its days, with evidence (tender attachments of owner 'manager-exception').
 * Recording checks the facts (exceptionRecordProblem); the project save (projects.ts) lets a pair of active
 * projects through only with an exception in force today (exceptionInForceProblem: the facts still hold, the
 * day within its days, evidence uploaded) and says which rule allowed it. Rows are read with their problem of
 * today, shown on the project and in 业绩核查.
 *
 * After the recording (issue 29): an exception ends by itself when a project save makes its ground no longer hold
 * (endExceptionsOfProject: a project finished, the stopped project no longer 停工 — exceptionEndReason); the last
 * evidence file of an exception in force cannot be deleted (the owner's refuseDelete); the project's manager is
 * reminded EXCEPTION_REMIND_DAYS before a time-bound exception's end day (sendExceptionReminders, in the
 * certificate reminders' hourly round).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import {
  EXCEPTION_REMIND_DAYS, ManagerExceptionGround, MANAGER_EXCEPTION_ARTICLE, MANAGER_EXCEPTION_OWNER, OperationLogType, SYSTEM_ACTOR_NAME, canAccessAny, dayPlus, daysBetween,
  exceptionEndReason, exceptionInForceProblem, exceptionRecordProblem, type ExceptionFacts, type ManagerExceptionInput, type ManagerExceptionRow,
} from '@zhyy/shared';
import type { Database } from '../../../db/schema.js';
import type { Access } from '../../../platform/access.js';
import { conflict, notFound, refuse } from '../../../platform/envelope.js';
import { newId } from '../../../platform/ids.js';
import { shanghaiDay } from '../../../platform/listing.js';
import { nowIso } from '../../../platform/time.js';
import { notifyUser } from '../../messages/service.js';
import { deleteOwnerAttachments } from '../attachment/attachments.js';
import { registerAttachmentOwner } from '../attachment/owners.js';
import { access } from '../paths.js';
import { isUniqueViolation } from './service.js';
import '../tables.js';

type Db = Kysely<Database>;

const COLUMNS = [
  'e.id', 'e.manager_id', 'e.project_id', 'e.other_project_id', 'e.ground', 'e.valid_from', 'e.valid_to', 'e.stop_date', 'e.remark', 'e.created_by', 'e.created_at', 'e.updated_by', 'e.updated_at',
  'e.end_reason', 'e.reminded_for',
  'u.name as manager_name', 'p.code as p_code', 'p.name as p_name', 'p.customer as p_customer', 'p.state as p_state', 'p.manager_id as p_manager',
  'o.code as o_code', 'o.name as o_name', 'o.customer as o_customer', 'o.state as o_state', 'o.manager_id as o_manager',
] as const;

const base = (db: Db) =>
  db
    .selectFrom('tender_manager_exceptions as e')
    .innerJoin('projects as p', 'p.id', 'e.project_id')
    .innerJoin('projects as o', 'o.id', 'e.other_project_id')
    .leftJoin('users as u', 'u.id', 'e.manager_id')
    .select([...COLUMNS]);
type Rec = Awaited<ReturnType<ReturnType<typeof base>['executeTakeFirstOrThrow']>>;

async function evidenceCounts(db: Db, ids: readonly string[]): Promise<Map<string, number>> {
  if (!ids.length) return new Map();
  const rows = await db
    .selectFrom('tender_attachments')
    .select(['owner_id', (eb) => eb.fn.countAll<number>().as('n')])
    .where('owner_kind', '=', MANAGER_EXCEPTION_OWNER)
    .where('owner_id', 'in', [...ids])
    .groupBy('owner_id')
    .execute();
  return new Map(rows.map((r) => [r.owner_id, Number(r.n)]));
}

/** A project's facts as about to be saved (the project save checks its exceptions against them, not the stored ones). */
export interface ProjectOverride {
  id: string;
  code: string;
  name: string;
  customer: string;
  state: number;
  managerId: string | null;
}

const factsOf = (r: Rec, over?: ProjectOverride): ExceptionFacts => {
  const project = { id: r.project_id, code: r.p_code, name: r.p_name, customer: r.p_customer, state: Number(r.p_state), managerId: r.p_manager };
  const other = { id: r.other_project_id, code: r.o_code, name: r.o_name, customer: r.o_customer, state: Number(r.o_state), managerId: r.o_manager };
  return {
    ground: Number(r.ground), managerId: r.manager_id, managerName: r.manager_name ?? '', validFrom: r.valid_from, validTo: r.valid_to, stopDate: r.stop_date, endReason: r.end_reason,
    project: over?.id === project.id ? { ...over } : project,
    other: over?.id === other.id ? { ...over } : other,
  };
};

function toRow(r: Rec, evidence: number, today: string, over?: ProjectOverride): ManagerExceptionRow {
  const ground = Number(r.ground);
  return {
    id: r.id, managerId: r.manager_id, managerName: r.manager_name ?? '', projectId: r.project_id, projectCode: r.p_code, projectName: r.p_name,
    otherProjectId: r.other_project_id, otherCode: r.o_code, otherName: r.o_name, ground, validFrom: r.valid_from, validTo: r.valid_to, stopDate: r.stop_date,
    stopDays: ground === ManagerExceptionGround.suspended && r.stop_date ? daysBetween(r.stop_date, today) : null,
    remark: r.remark, evidenceCount: evidence, problem: exceptionInForceProblem({ ...factsOf(r, over), evidenceCount: evidence }, today), endReason: r.end_reason,
    createdBy: r.created_by, createdAt: r.created_at, updatedBy: r.updated_by, updatedAt: r.updated_at,
  };
}

async function rowsOf(db: Db, recs: Rec[], today: string, over?: ProjectOverride): Promise<ManagerExceptionRow[]> {
  const counts = await evidenceCounts(db, recs.map((r) => r.id));
  return recs.map((r) => toRow(r, counts.get(r.id) ?? 0, today, over));
}

/** The exceptions the projects are part of (either side), oldest first. */
export async function exceptionsOfProjects(db: Db, projectIds: readonly string[], today = shanghaiDay()): Promise<ManagerExceptionRow[]> {
  if (!projectIds.length) return [];
  const recs = await base(db)
    .where((eb) => eb.or([eb('e.project_id', 'in', [...projectIds]), eb('e.other_project_id', 'in', [...projectIds])]))
    .orderBy('e.created_at')
    .orderBy('e.id')
    .execute();
  return rowsOf(db, recs, today);
}

/** The exceptions of one manager, as of `today`, with the project being saved taken as `over` (the project save's check). */
export async function exceptionsOfManager(db: Db, managerId: string, over?: ProjectOverride, today = shanghaiDay()): Promise<ManagerExceptionRow[]> {
  return rowsOf(db, await base(db).where('e.manager_id', '=', managerId).orderBy('e.created_at').orderBy('e.id').execute(), today, over);
}

/** The exceptions of a manager between two projects, either way round (in force first). */
export function exceptionsBetween(rows: readonly ManagerExceptionRow[], managerId: string, a: string, b: string): ManagerExceptionRow[] {
  return rows
    .filter((r) => r.managerId === managerId && ((r.projectId === a && r.otherProjectId === b) || (r.projectId === b && r.otherProjectId === a)))
    .sort((x, y) => Number(x.problem !== null) - Number(y.problem !== null));
}

/**
 * The exception a project's hold of its manager rests on (projects.manager_exception_id, left out of the
 * partial unique index): one recorded for this project and its current manager, else none.
 */
export async function exceptionMarkOf(db: Db, projectId: string, managerId: string | null): Promise<string | null> {
  if (!managerId) return null;
  const e = await db.selectFrom('tender_manager_exceptions').select('id').where('project_id', '=', projectId).where('manager_id', '=', managerId).where('end_reason', '=', '').orderBy('created_at').orderBy('id').limit(1).executeTakeFirst();
  return e?.id ?? null;
}

async function refreshMark(db: Db, projectId: string): Promise<void> {
  const p = await db.selectFrom('projects').select('manager_id').where('id', '=', projectId).executeTakeFirst();
  if (p) await db.updateTable('projects').set({ manager_exception_id: await exceptionMarkOf(db, projectId, p.manager_id) }).where('id', '=', projectId).execute();
}

const describe = (r: ManagerExceptionRow) =>
  `${r.managerName} 在「${r.projectCode} ${r.projectName}」与「${r.otherCode} ${r.otherName}」：${ManagerExceptionGround.label(r.ground)}` +
  `${r.stopDate ? `，停工日期 ${r.stopDate}` : ''}，有效期 ${r.validFrom} 至 ${r.validTo ?? '长期'}${r.remark ? `，说明 ${r.remark}` : ''}`;

/**
 * Ends the running exceptions of a project (either side) whose ground no longer holds after its save
 * (exceptionEndReason): valid_to becomes today (unless it ended earlier), end_reason keeps why, both projects' marks
 * are refreshed, and both projects' logs say so. Called inside the project save's transaction. Answers the sentences.
 */
export async function endExceptionsOfProject(app: FastifyInstance, trx: Db, req: FastifyRequest, projectId: string, today = shanghaiDay()): Promise<string[]> {
  const recs = await base(trx)
    .where((eb) => eb.or([eb('e.project_id', '=', projectId), eb('e.other_project_id', '=', projectId)]))
    .where('e.end_reason', '=', '')
    .orderBy('e.created_at')
    .orderBy('e.id')
    .execute();
  const out: string[] = [];
  for (const r of recs) {
    const reason = exceptionEndReason(factsOf(r));
    if (!reason) continue;
    const validTo = r.valid_to && r.valid_to < today ? r.valid_to : today;
    const done = await trx.updateTable('tender_manager_exceptions').set({ end_reason: reason, valid_to: validTo, updated_by: SYSTEM_ACTOR_NAME, updated_at: nowIso() }).where('id', '=', r.id).where('end_reason', '=', '').executeTakeFirst();
    if (!Number(done.numUpdatedRows)) continue;
    const [row] = await rowsOf(trx, [r], today);
    const text = `项目经理例外自动终止：${describe(row!)}；${reason}`;
    for (const p of new Set([r.project_id, r.other_project_id])) {
      await refreshMark(trx, p);
      await app.oplog.recordFor({ kind: 'project', id: p }, req, OperationLogType.edit, text, trx);
    }
    out.push(reason);
  }
  return out;
}

/** Why the evidence file may not be deleted: the last one of an exception in force (null: it may). */
async function lastEvidenceRefusal(db: Db, exceptionId: string): Promise<string | null> {
  const [r] = await rowsOf(db, await base(db).where('e.id', '=', exceptionId).execute(), shanghaiDay());
  if (!r || r.problem !== null || r.evidenceCount > 1) return null;
  return `该例外正在使用（${r.managerName}同时担任「${r.projectCode} ${r.projectName}」与「${r.otherCode} ${r.otherName}」的项目经理），这是它唯一的证明材料，不能删除；请先上传新的证明材料再删除这一份`;
}

export interface ExceptionReminderResult {
  reminded: number;
  messages: number;
}

/**
 * Reminds the project's manager (its 施工项目负责人; the exception's manager when the project has none) of the
 * running time-bound exceptions ending within EXCEPTION_REMIND_DAYS of `day`: once per exception and end day
 * (reminded_for, claimed by a guarded update in the message's transaction, so two rounds or servers never send it
 * twice; a changed end day is reminded again).
 */
export async function sendExceptionReminders(db: Db, day: string, check: () => Promise<void> = async () => undefined): Promise<ExceptionReminderResult> {
  const due = await base(db)
    .where('e.end_reason', '=', '')
    .where('e.valid_to', 'is not', null)
    .where('e.valid_to', '>=', day)
    .where('e.valid_to', '<=', dayPlus(day, EXCEPTION_REMIND_DAYS))
    .where((eb) => eb.or([eb('e.reminded_for', 'is', null), eb('e.reminded_for', '<>', eb.ref('e.valid_to'))]))
    .orderBy('e.valid_to')
    .orderBy('e.id')
    .execute();
  let reminded = 0;
  let messages = 0;
  for (const r of due) {
    await check();
    const sent = await db.transaction().execute(async (trx) => {
      const claimed = await trx
        .updateTable('tender_manager_exceptions')
        .set({ reminded_for: r.valid_to })
        .where('id', '=', r.id)
        .where('end_reason', '=', '')
        .where('valid_to', '=', r.valid_to!)
        .where((eb) => eb.or([eb('reminded_for', 'is', null), eb('reminded_for', '<>', r.valid_to!)]))
        .executeTakeFirst();
      if (!Number(claimed.numUpdatedRows)) return 0;
      const to = await trx.selectFrom('users').select(['id', 'status']).where('id', '=', r.p_manager ?? r.manager_id).executeTakeFirst();
      if (!to || to.status !== 1) return -1;
      const left = daysBetween(day, r.valid_to!);
      await notifyUser(trx, to.id, {
        title: `项目经理例外将于${r.valid_to}到期`,
        content:
          `${r.manager_name ?? ''}在「${r.p_code} ${r.p_name}」与「${r.o_code} ${r.o_name}」之间登记的项目经理例外（${MANAGER_EXCEPTION_ARTICLE}：${ManagerExceptionGround.label(Number(r.ground))}）` +
          `将于 ${r.valid_to} 到期（还有${left}天）。到期后两个项目不能再同时由其担任项目经理：如情形仍然成立，请补充证明材料并修改例外的截止日期；否则请调整项目经理或项目状态。`,
        link: `/tender/project/detail/${r.project_id}`,
      });
      return 1;
    });
    if (sent !== 0) reminded++;
    if (sent === 1) messages++;
  }
  return { reminded, messages };
}

const allows = (req: FastifyRequest, a: Access) => !!req.user && a.kind === 'pages' && canAccessAny(req.user.roles, a.requirements);

let registered = false;
/** The evidence's owner: read on the project pages and 业绩核查's pages, written on the project pages (roles 1, 4). */
export function registerExceptionOwner(): void {
  if (registered) return;
  registered = true;
  registerAttachmentOwner(MANAGER_EXCEPTION_OWNER, {
    canRead: (req) => allows(req, access.project.access) || allows(req, access.files.access),
    canWrite: (req) => allows(req, access.project.access),
    describe: async (db, ownerId) => {
      const [r] = await rowsOf(db, await base(db).where('e.id', '=', ownerId).execute(), shanghaiDay());
      return r ? `项目经理例外 ${r.managerName} ${r.projectCode}/${r.otherCode}` : null;
    },
    kinds: [0],
    refuseDelete: (db, ownerId) => lastEvidenceRefusal(db, ownerId),
  });
}

export class ManagerExceptionService {
  constructor(private readonly app: FastifyInstance) {}

  private get db(): Db {
    return this.app.db.kysely;
  }

  async save(req: FastifyRequest, b: ManagerExceptionInput): Promise<ManagerExceptionRow> {
    const id = b.id ?? newId();
    const today = shanghaiDay();
    try {
      await this.db.transaction().execute(async (trx) => {
        const before = b.id ? (await rowsOf(trx, await base(trx).where('e.id', '=', b.id).execute(), today))[0] : undefined;
        if (b.id && !before) throw notFound('例外不存在或已删除');
        const projects = await trx.selectFrom('projects').select(['id', 'code', 'name', 'customer', 'state', 'manager_id']).where('id', 'in', [b.projectId, b.otherProjectId]).where('is_temp', '=', 0).execute();
        const project = projects.find((p) => p.id === b.projectId);
        const other = projects.find((p) => p.id === b.otherProjectId);
        if (!project) throw notFound('项目不存在或已删除');
        if (!other) throw refuse('所涉的另一个项目不存在或已删除，请重新选择');
        const manager = await trx.selectFrom('users').select(['id', 'name']).where('id', '=', b.managerId).executeTakeFirst();
        if (!manager) throw refuse('所选项目经理不存在，请重新选择');
        const problem = exceptionRecordProblem(
          {
            ground: b.ground, managerId: manager.id, managerName: manager.name, validFrom: b.validFrom, validTo: b.validTo, stopDate: b.ground === ManagerExceptionGround.suspended ? b.stopDate : null,
            project: { id: project.id, code: project.code, name: project.name, customer: project.customer, state: project.state, managerId: project.manager_id },
            other: { id: other.id, code: other.code, name: other.name, customer: other.customer, state: other.state, managerId: other.manager_id },
          },
          today,
        );
        if (problem) throw refuse(problem);
        const now = nowIso();
        const by = req.user?.name ?? '';
        const cols = {
          manager_id: manager.id, project_id: project.id, other_project_id: other.id, ground: b.ground, valid_from: b.validFrom, valid_to: b.validTo,
          stop_date: b.ground === ManagerExceptionGround.suspended ? b.stopDate : null, remark: b.remark, updated_by: by, updated_at: now,
        };
        if (before) await trx.updateTable('tender_manager_exceptions').set(cols).where('id', '=', id).execute();
        else await trx.insertInto('tender_manager_exceptions').values({ id, ...cols, created_by: by, created_at: now }).execute();
        for (const p of new Set([project.id, ...(before ? [before.projectId] : [])])) await refreshMark(trx, p);
        const after = (await rowsOf(trx, await base(trx).where('e.id', '=', id).execute(), today))[0]!;
        const text = before ? `修改项目经理例外：${describe(before)} → ${describe(after)}` : `登记项目经理例外：${describe(after)}`;
        for (const p of new Set([project.id, other.id])) await this.app.oplog.recordFor({ kind: 'project', id: p }, req, before ? OperationLogType.edit : OperationLogType.add, text, trx);
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw conflict('该项目经理在这两个项目之间已登记例外，请修改已有的例外');
      throw err;
    }
    return (await rowsOf(this.db, await base(this.db).where('e.id', '=', id).execute(), today))[0]!;
  }

  /**
   * Removes an exception with its evidence. Refused while a project rests on it: both projects active
   * under its manager (change the manager or the state first).
   */
  async remove(req: FastifyRequest, id: string): Promise<void> {
    const today = shanghaiDay();
    await this.db.transaction().execute(async (trx) => {
      const [r] = await rowsOf(trx, await base(trx).where('e.id', '=', id).execute(), today);
      if (!r) throw notFound('例外不存在或已删除');
      const pair = await trx.selectFrom('projects').select(['id', 'state', 'manager_id']).where('id', 'in', [r.projectId, r.otherProjectId]).execute();
      const held = pair.length === 2 && pair.every((p) => p.manager_id === r.managerId && (p.state === 1 || p.state === 2));
      if (held) throw conflict(`${r.managerName}仍同时担任「${r.projectCode} ${r.projectName}」与「${r.otherCode} ${r.otherName}」的项目经理，该例外正在使用，不能删除；请先更换项目经理或调整项目状态`);
      await trx.deleteFrom('tender_manager_exceptions').where('id', '=', id).execute();
      await refreshMark(trx, r.projectId);
      for (const p of new Set([r.projectId, r.otherProjectId])) await this.app.oplog.recordFor({ kind: 'project', id: p }, req, OperationLogType.delete, `删除项目经理例外：${describe(r)}`, trx);
    });
    await deleteOwnerAttachments(this.app, MANAGER_EXCEPTION_OWNER, [id]);
  }
}
