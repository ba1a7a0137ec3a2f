/**
 * Templates and directories the forms need: the flows a user may start (grouped, with the ones they
 * start most), one template's form and nodes, the flow list of a domain, departments and people.
 */
import { FlowState, type DeptItem, type EmpItem, type FlowTemplate, type StartFlow, type StartFlowsAnswer } from '@zhyy/shared';
import { notFound } from '../../platform/envelope.js';
import { definitionOf } from './repo.js';
import type { WfDb } from './tables.js';

/** Categories in the order 发起申请 shows them. */
export const CATEGORY_ORDER = ['行政办公', '财务报销', '合同业务', '通用'];
const FREQUENT = 4;

export class WorkflowCatalog {
  constructor(private readonly db: WfDb) {}

  private current() {
    return this.db.selectFrom('wf_templates').selectAll().where('is_current', '=', 1).where('enabled', '=', 1).orderBy('sort').orderBy('flow_no').execute();
  }

  async startFlows(userId: string): Promise<StartFlowsAnswer> {
    const templates = await this.current();
    const since = new Date(Date.now() - 180 * 86400_000).toISOString();
    const usage = await this.db
      .selectFrom('wf_instances')
      .select(['flow_no', (eb) => eb.fn.countAll<number>().as('n')])
      .where('starter_id', '=', userId)
      .where('created_at', '>=', since)
      .where('state', '!=', FlowState.deleted)
      .groupBy('flow_no')
      .execute();
    const used = new Map(usage.map((u) => [u.flow_no, Number(u.n)]));
    const flows: StartFlow[] = templates.map((t) => ({
      flowNo: t.flow_no,
      name: t.name,
      category: t.category,
      description: t.description,
      version: t.version,
      startedByMe: used.get(t.flow_no) ?? 0,
    }));
    const categories = [...new Set([...CATEGORY_ORDER.filter((c) => flows.some((f) => f.category === c)), ...flows.map((f) => f.category)])];
    const frequent = flows
      .filter((f) => f.startedByMe > 0)
      .sort((a, b) => b.startedByMe - a.startedByMe || a.flowNo.localeCompare(b.flowNo))
      .slice(0, FREQUENT);
    // Someone who has started nothing yet is offered the first templates of the catalogue.
    return { groups: categories.map((category) => ({ category, flows: flows.filter((f) => f.category === category) })), frequent: frequent.length ? frequent : flows.slice(0, FREQUENT) };
  }

  async template(flowNo: string): Promise<FlowTemplate> {
    const t = await this.db.selectFrom('wf_templates').selectAll().where('flow_no', '=', flowNo).where('is_current', '=', 1).executeTakeFirst();
    if (!t || t.enabled !== 1) throw notFound('该流程不存在或已停用');
    const def = definitionOf(t);
    return { flowNo: t.flow_no, name: t.name, category: t.category, description: t.description, version: t.version, form: def.form, nodes: def.nodes };
  }

  /** Flows of a domain (CCFlow's flowdata): every template's current version, for filters. */
  async flowData(domain: string) {
    const rows = await this.db.selectFrom('wf_templates').select(['flow_no', 'name', 'category', 'version', 'enabled']).where('is_current', '=', 1).orderBy('sort').execute();
    return {
      domain,
      flows: rows.map((r) => ({ flowNo: r.flow_no, name: r.name, category: r.category, version: r.version, enabled: r.enabled === 1 })),
      categories: [...new Set(rows.map((r) => r.category))],
    };
  }

  async departments(): Promise<DeptItem[]> {
    const rows = await this.db
      .selectFrom('departments as d')
      .leftJoin('users as m', 'm.id', 'd.manager_id')
      .select(['d.id', 'd.name', 'd.parent_id', 'm.name as manager'])
      .orderBy('d.sort')
      .orderBy('d.name')
      .execute();
    return rows.map((r) => ({ id: r.id, name: r.name, parentId: r.parent_id, managerName: r.manager ?? '' }));
  }

  async people(q: { keyword?: string; deptId?: string }): Promise<EmpItem[]> {
    let base = this.db
      .selectFrom('users as u')
      .leftJoin('departments as d', 'd.id', 'u.dept_id')
      .select(['u.id', 'u.name', 'u.login_name', 'u.position', 'd.name as dept'])
      .where('u.status', '=', 1);
    if (q.deptId) base = base.where('u.dept_id', '=', q.deptId);
    if (q.keyword) {
      const k = `%${q.keyword.toLowerCase()}%`;
      base = base.where((eb) => eb.or([eb('u.name', 'like', k), eb('u.login_name', 'like', k)]));
    }
    const rows = await base.orderBy('d.sort').orderBy('u.login_name').limit(200).execute();
    return rows.map((r) => ({ id: r.id, name: r.name, loginName: r.login_name, deptName: r.dept ?? '', position: r.position }));
  }
}
