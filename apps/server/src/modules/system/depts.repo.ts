/** SQL of the department screens. The whole tree is read at once: a company has tens of departments, not thousands. */
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';

type Db = Kysely<Database>;

export interface DeptRecord {
  id: string;
  parent_id: string | null;
  name: string;
  sort: number;
  manager_id: string | null;
  manager_name: string | null;
}

export function allDepts(db: Db): Promise<DeptRecord[]> {
  return db
    .selectFrom('departments as d')
    .leftJoin('users as m', 'm.id', 'd.manager_id')
    .select(['d.id', 'd.parent_id', 'd.name', 'd.sort', 'd.manager_id', 'm.name as manager_name'])
    .orderBy('d.sort')
    .orderBy('d.name')
    .execute();
}

/** Users per department (disabled ones included: they still belong there). */
export async function memberCounts(db: Db): Promise<Map<string, number>> {
  const rows = await db
    .selectFrom('users')
    .select(['dept_id', (eb) => eb.fn.countAll<number>().as('n')])
    .where('dept_id', 'is not', null)
    .groupBy('dept_id')
    .execute();
  return new Map(rows.map((r) => [r.dept_id!, Number(r.n)]));
}

export function activeUsersIn(db: Db) {
  return db
    .selectFrom('users')
    .select(['id', 'login_name', 'name', 'dept_id', 'position'])
    .where('status', '=', 1)
    .orderBy('name')
    .execute();
}
