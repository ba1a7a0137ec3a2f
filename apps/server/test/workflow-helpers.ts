/** Helpers of the workflow tests: engine actors from demo logins, and a snapshot to prove refusals change nothing. */
import { endOfWorkdays } from '@zhyy/shared';
import type { Actor } from '../src/modules/workflow/engine-core.js';
import { WorkflowEngine } from '../src/modules/workflow/engine.js';
import { OutcomeRegistry } from '../src/modules/workflow/outcomes.js';
import { wf } from '../src/modules/workflow/tables.js';
import type { TestServer } from './helpers.js';

export async function actor(s: TestServer, login: string): Promise<Actor> {
  const k = wf(s.db.kysely);
  const u = await k
    .selectFrom('users as u')
    .leftJoin('departments as d', 'd.id', 'u.dept_id')
    .select(['u.id', 'u.name', 'u.dept_id', 'd.name as dept'])
    .where('u.login_name', '=', login)
    .executeTakeFirstOrThrow();
  const roles = (await k.selectFrom('user_roles').select('role').where('user_id', '=', u.id).execute()).map((r) => r.role);
  return { id: u.id, name: u.name, roles, deptId: u.dept_id, deptName: u.dept ?? '' };
}

export function engineFor(s: TestServer, outcomes = new OutcomeRegistry()): WorkflowEngine {
  return new WorkflowEngine(s.db, outcomes);
}

/** Everything an action could change about one instance. */
export async function snapshot(s: TestServer, workId: number): Promise<string> {
  const k = wf(s.db.kysely);
  const inst = await k.selectFrom('wf_instances').selectAll().where('work_id', '=', workId).executeTakeFirst();
  const items = await k.selectFrom('wf_work_items').select(['handler_id', 'node_id', 'state', 'opinion', 'pressed_at']).where('work_id', '=', workId).orderBy('id').execute();
  const tracks = await k.selectFrom('wf_tracks').select(['seq', 'action']).where('work_id', '=', workId).orderBy('seq').execute();
  const cc = await k.selectFrom('wf_cc').select('user_id').where('work_id', '=', workId).orderBy('user_id').execute();
  return JSON.stringify({ inst, items, tracks, cc });
}

export async function openHandlers(s: TestServer, workId: number): Promise<string[]> {
  const rows = await wf(s.db.kysely)
    .selectFrom('wf_work_items as w')
    .innerJoin('users as u', 'u.id', 'w.handler_id')
    .select('u.login_name')
    .where('w.work_id', '=', workId)
    .where('w.state', '=', 0)
    .orderBy('u.login_name')
    .execute();
  return rows.map((r) => r.login_name);
}

export async function instance(s: TestServer, workId: number) {
  return wf(s.db.kysely).selectFrom('wf_instances').selectAll().where('work_id', '=', workId).executeTakeFirstOrThrow();
}

/** The login name of a department's manager (the demo company decides them). */
export async function managerLogin(s: TestServer, deptName: string): Promise<string> {
  const row = await wf(s.db.kysely)
    .selectFrom('departments as d')
    .innerJoin('users as u', 'u.id', 'd.manager_id')
    .select('u.login_name')
    .where('d.name', '=', deptName)
    .executeTakeFirstOrThrow();
  return row.login_name;
}

/** A leave from Monday 2026-11-23 whose 请假天数 agree with its dates (working days, half a day less allowed). */
export const leaveForm = (days: number) => ({ leaveType: '事假', days, period: ['2026-11-23', endOfWorkdays('2026-11-23', days)], reason: '家中有事需要处理' });
