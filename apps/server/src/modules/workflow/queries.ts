/**
 * The read side: the to-do counts behind the badges, the to-do items, and the instance lists of
 * 我的待办 and 流程管理. Who sees what: everyone their own; roles 1 and 3 (and admin) everything.
 */
import { sql, type ExpressionBuilder, type SelectQueryBuilder } from 'kysely';
import { FlowState, OPEN_FLOW_STATES, WorkItemState, isWorkflowAdmin, type InstanceRow, type ListBody, type PageResult, type TodoAnswer, type TodoItem } from '@zhyy/shared';
import { countsAtOnce } from '../../db/counts.js';
import type { Database } from '../../db/schema.js';
import type { WfDb, WorkflowTables } from './tables.js';
import { sortOf } from '../../platform/listing.js';
import { shanghaiDayStartIso } from '../../platform/time.js';

type DB = Database & WorkflowTables;
type InstEb = ExpressionBuilder<DB, 'wf_instances'>;

/** Actions after which an instance counts as 在途 for the person who took them. */
const ACTED = ['start', 'send', 'return', 'shift', 'adminShift'];
const LIVE = [...OPEN_FLOW_STATES];
/** How many to-do items the todo call lists (the notifications and the dashboard use the newest). */
const LISTED_WORK_ITEMS = 50;


const likePattern = (text: string) => `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

export class WorkflowQueries {
  constructor(private readonly db: WfDb) {}

  private actedOn = (eb: InstEb, userId: string) =>
    eb('wf_instances.work_id', 'in', eb.selectFrom('wf_tracks').select('wf_tracks.work_id').where('wf_tracks.actor_id', '=', userId).where('wf_tracks.action', 'in', ACTED));

  private involved = (eb: InstEb, userId: string) =>
    eb.or([
      eb('wf_instances.starter_id', '=', userId),
      eb('wf_instances.work_id', 'in', eb.selectFrom('wf_work_items').select('wf_work_items.work_id').where('wf_work_items.handler_id', '=', userId)),
      eb('wf_instances.work_id', 'in', eb.selectFrom('wf_cc').select('wf_cc.work_id').where('wf_cc.user_id', '=', userId)),
    ]);

  private async count(q: SelectQueryBuilder<DB, 'wf_instances', object>): Promise<number> {
    const row = await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  async counts(userId: string): Promise<Omit<TodoAnswer, 'items'>> {
    const base = () => this.db.selectFrom('wf_instances').select((eb) => eb.fn.countAll<number>().as('n'));
    // The five badges in one statement (db/counts.ts): the to-do call is polled by every signed-in user.
    const c = await countsAtOnce(this.db, {
      Todolist_EmpWorks: base()
        .where((eb) =>
          eb('wf_instances.work_id', 'in', eb.selectFrom('wf_work_items').select('wf_work_items.work_id').where('wf_work_items.handler_id', '=', userId).where('wf_work_items.state', '=', WorkItemState.open)),
        )
        .where('state', 'in', LIVE),
      Todolist_Runing: base().where('state', 'in', LIVE).where((eb) => this.actedOn(eb, userId)),
      Todolist_Draft: base().where('starter_id', '=', userId).where('state', '=', FlowState.draft),
      Todolist_MyStartFlow: base().where('starter_id', '=', userId).where('state', 'not in', [FlowState.draft, FlowState.deleted]),
      Todolist_MyFlow: base().where('state', 'not in', [FlowState.draft, FlowState.deleted]).where((eb) => this.involved(eb, userId)),
    });
    return {
      Todolist_EmpWorks: c.Todolist_EmpWorks ?? 0,
      Todolist_Runing: c.Todolist_Runing ?? 0,
      Todolist_Draft: c.Todolist_Draft ?? 0,
      Todolist_MyStartFlow: c.Todolist_MyStartFlow ?? 0,
      Todolist_MyFlow: c.Todolist_MyFlow ?? 0,
    };
  }

  /** The user's open work items, newest first. */
  async todoItems(userId: string, limit = LISTED_WORK_ITEMS): Promise<TodoItem[]> {
    const rows = await this.db
      .selectFrom('wf_work_items as w')
      .innerJoin('wf_instances as i', 'i.work_id', 'w.work_id')
      .select(['i.work_id', 'i.title', 'i.flow_no', 'i.flow_name', 'w.node_name', 'i.starter_name', 'i.dept_name', 'w.created_at', 'w.pressed_at'])
      .where('w.handler_id', '=', userId)
      .where('w.state', '=', WorkItemState.open)
      .where('i.state', 'in', LIVE)
      .orderBy('w.created_at', 'desc')
      .orderBy('i.work_id', 'desc')
      .limit(limit)
      .execute();
    return rows.map((r) => ({
      WorkID: Number(r.work_id),
      Title: r.title,
      FlowNo: r.flow_no,
      FlowName: r.flow_name,
      NodeName: r.node_name,
      StarterName: r.starter_name,
      DeptName: r.dept_name,
      ArrivedAt: r.created_at,
      Pressed: !!r.pressed_at,
    }));
  }

  /** Instances of one scope with filters, paginated. */
  async list(user: { id: string; roles: readonly string[] }, q: ListBody): Promise<PageResult<InstanceRow>> {
    const uid = user.id;
    let base = this.db.selectFrom('wf_instances');
    switch (q.scope) {
      case 'todo':
        base = base
          .where('state', 'in', LIVE)
          .where((eb) =>
            eb('wf_instances.work_id', 'in', eb.selectFrom('wf_work_items').select('wf_work_items.work_id').where('wf_work_items.handler_id', '=', uid).where('wf_work_items.state', '=', WorkItemState.open)),
          );
        break;
      case 'running':
        base = base.where('state', 'in', LIVE).where((eb) => this.actedOn(eb, uid));
        break;
      case 'draft':
        base = base.where('starter_id', '=', uid).where('state', '=', FlowState.draft);
        break;
      case 'mine':
        base = base.where('starter_id', '=', uid).where('state', 'not in', [FlowState.draft, FlowState.deleted]);
        break;
      case 'involved':
        base = base.where('state', 'not in', [FlowState.draft, FlowState.deleted]).where((eb) => this.involved(eb, uid));
        break;
      case 'cc':
        base = base.where('state', '!=', FlowState.deleted).where((eb) => eb('wf_instances.work_id', 'in', eb.selectFrom('wf_cc').select('wf_cc.work_id').where('wf_cc.user_id', '=', uid)));
        break;
      case 'all':
        // Drafts are private to their starter; deleted instances only appear when asked for by state.
        base = base.where('state', '!=', FlowState.draft);
        if (q.state !== FlowState.deleted) base = base.where('state', '!=', FlowState.deleted);
        if (!isWorkflowAdmin(user.roles)) base = base.where((eb) => this.involved(eb, uid));
        break;
    }
    if (q.flowNo) base = base.where('flow_no', '=', q.flowNo);
    if (q.title) base = base.where(sql<boolean>`lower(title) like ${likePattern(q.title)} escape '\\'`);
    if (q.starter) base = base.where(sql<boolean>`lower(starter_name) like ${likePattern(q.starter)} escape '\\'`);
    if (q.deptId) base = base.where('dept_id', '=', q.deptId);
    if (q.state) base = base.where('state', '=', q.state);
    if (q.from) base = base.where('created_at', '>=', shanghaiDayStartIso(q.from));
    if (q.to) base = base.where('created_at', '<', shanghaiDayStartIso(q.to, 1));

    const total = await this.count(base);
    const { column: sortCol, order } = sortOf(q.sort, { CreatedAt: 'created_at', UpdatedAt: 'updated_at', WorkID: 'work_id', Title: 'title' } as const, { column: 'updated_at', order: 'desc' });
    const rows = await base
      .selectAll()
      .orderBy(sortCol, order)
      .orderBy('work_id', 'desc')
      .limit(q.pageSize)
      .offset((q.pageIndex - 1) * q.pageSize)
      .execute();
    const arrivals = new Map<number, { created_at: string; pressed_at: string | null }>();
    if (q.scope === 'todo' && rows.length) {
      const items = await this.db
        .selectFrom('wf_work_items')
        .select(['work_id', 'created_at', 'pressed_at'])
        .where('handler_id', '=', uid)
        .where('state', '=', WorkItemState.open)
        .where('work_id', 'in', rows.map((r) => r.work_id))
        .execute();
      for (const i of items) arrivals.set(Number(i.work_id), i);
    }
    return {
      total,
      items: rows.map((r) => ({
        WorkID: Number(r.work_id),
        Title: r.title,
        FlowNo: r.flow_no,
        FlowName: r.flow_name,
        State: r.state as InstanceRow['State'],
        NodeName: r.node_name,
        Handlers: r.handler_names,
        StarterName: r.starter_name,
        DeptName: r.dept_name,
        CreatedAt: r.created_at,
        UpdatedAt: r.updated_at,
        FinishedAt: r.finished_at,
        ...(arrivals.has(Number(r.work_id)) ? { ArrivedAt: arrivals.get(Number(r.work_id))!.created_at, Pressed: !!arrivals.get(Number(r.work_id))!.pressed_at } : {}),
      })),
    };
  }
}
