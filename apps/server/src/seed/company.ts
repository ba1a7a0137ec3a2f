/**
 * The demo company: 华建工程技术服务有限公司, its departments, an administrator, one user for every
 * role of SPEC section 6 (demo1, demo3, … demo23, each holding only that role) and about 40 staff.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { newUserRow } from '../modules/account/user-row.js';
import { demoId } from '../platform/ids.js';
import { GIVEN_NAMES, SURNAMES } from './names.js';
import type { Rng } from './rng.js';

export const COMPANY_NAME = '华建工程技术服务有限公司';

export interface DemoDept {
  key: string;
  name: string;
  parent: string | null;
  positions: string[];
}

export const DEPARTMENTS: DemoDept[] = [
  { key: 'company', name: COMPANY_NAME, parent: null, positions: ['总经理', '副总经理'] },
  { key: 'gm', name: '总经理办公室', parent: 'company', positions: ['主任', '秘书'] },
  { key: 'admin', name: '综合管理部', parent: 'company', positions: ['部长', '行政专员', '档案管理员'] },
  { key: 'finance', name: '财务部', parent: 'company', positions: ['财务总监', '会计', '出纳', '税务会计'] },
  { key: 'hr', name: '人力资源部', parent: 'company', positions: ['部长', '人事专员', '证书管理员'] },
  { key: 'market', name: '市场经营部', parent: 'company', positions: ['部长', '客户经理', '合同专员'] },
  { key: 'bid', name: '投标中心', parent: 'market', positions: ['主任', '投标经理', '标书专员', '资料员'] },
  { key: 'eng', name: '工程管理部', parent: 'company', positions: ['部长', '工程师', '安全员'] },
  { key: 'eng1', name: '工程一部', parent: 'eng', positions: ['项目经理', '施工员', '项目成本员'] },
  { key: 'eng2', name: '工程二部', parent: 'eng', positions: ['项目经理', '施工员', '资料员'] },
  { key: 'cost', name: '成本合约部', parent: 'company', positions: ['部长', '成本工程师', '造价员'] },
  { key: 'quality', name: '技术质量部', parent: 'company', positions: ['总工程师', '质量工程师'] },
  { key: 'it', name: '信息中心', parent: 'company', positions: ['主任', '系统管理员'] },
];

export interface DemoUser {
  id: string;
  loginName: string;
  name: string;
  dept: string;
  position: string;
  roles: string[];
  phone: string;
  email: string;
}

/** One account per role: login demo<N>, only role N. */
const ROLE_ACCOUNTS: Array<[string, string, string, string]> = [
  ['1', '王建国', 'it', '系统管理员'],
  ['3', '李晓燕', 'admin', '系统专员'],
  ['4', '张伟', 'market', '合同主管'],
  ['5', '刘芳', 'finance', '销项会计'],
  ['6', '陈静', 'bid', '投标经理'],
  ['7', '杨帆', 'market', '合同专员'],
  ['8', '赵磊', 'eng', '合同专员'],
  ['9', '黄丽', 'bid', '标书专员'],
  ['11', '周敏', 'finance', '财务分析员'],
  ['12', '吴强', 'finance', '费用会计'],
  ['13', '徐婷', 'finance', '税务会计'],
  ['14', '孙浩', 'admin', '档案管理员'],
  ['15', '马超', 'hr', '证书管理员'],
  ['16', '朱琳', 'finance', '财务主管'],
  ['17', '胡军', 'cost', '成本经理'],
  ['18', '郭秀英', 'cost', '成本会计'],
  ['19', '何勇', 'eng1', '项目成本员'],
  ['20', '高峰', 'eng1', '项目经理'],
  ['21', '林涛', 'eng2', '项目经理'],
  ['22', '罗娟', 'quality', '技术负责人'],
  ['23', '梁宇', 'bid', '资料员'],
];

/**
 * Role combinations real staff hold, by department. Everyone holds at least one role: SPEC section 5
 * refuses a sign-in whose roles are empty (权限不足), and every employee approves in the workflow.
 */
const STAFF_ROLES: Record<string, string[][]> = {
  company: [['11', '18']],
  gm: [['11'], ['3']],
  admin: [['14'], ['14'], ['3', '14']],
  finance: [['5', '11'], ['12', '16'], ['13', '14'], ['5', '13'], ['11'], ['16']],
  hr: [['15'], ['15'], ['3', '15']],
  market: [['4', '7'], ['4'], ['7']],
  bid: [['6', '9'], ['9', '23'], ['6', '15']],
  eng: [['8'], ['19'], ['20']],
  eng1: [['19', '20'], ['20'], ['21']],
  eng2: [['21'], ['19'], ['8']],
  cost: [['17', '18'], ['18', '19'], ['22']],
  quality: [['22'], ['6']],
  it: [['1'], ['3']],
};

const phone = (rng: Rng) => `1${rng.pick(['3', '5', '8'])}${String(rng.int(0, 999999999)).padStart(9, '0')}`;

export function buildDemoUsers(rng: Rng): DemoUser[] {
  const users: DemoUser[] = [
    {
      id: demoId('user:admin'),
      loginName: 'admin',
      name: '系统管理员',
      dept: 'it',
      position: '系统管理员',
      roles: ['admin'],
      phone: '13905173826',
      email: 'admin@huajian.example.cn',
    },
  ];
  for (const [role, name, dept, position] of ROLE_ACCOUNTS) {
    users.push({ id: demoId(`user:demo${role}`), loginName: `demo${role}`, name, dept, position, roles: [role], phone: phone(rng), email: `demo${role}@huajian.example.cn` });
  }
  const taken = new Set(users.map((u) => u.name));
  const logins = new Set(users.map((u) => u.loginName));
  const staffDepts = DEPARTMENTS.flatMap((d) => (d.key === 'company' ? [d, d] : [d, d, d]));
  for (let i = 0; users.length < 1 + ROLE_ACCOUNTS.length + 40; i++) {
    const [sur, surPy] = rng.pick(SURNAMES);
    const [given, givenPy] = rng.pick(GIVEN_NAMES);
    const name = sur + given;
    if (taken.has(name)) continue;
    taken.add(name);
    let login = `${surPy}${givenPy}`;
    for (let n = 2; logins.has(login); n++) login = `${surPy}${givenPy}${n}`;
    logins.add(login);
    const dept = staffDepts[i % staffDepts.length]!;
    users.push({
      id: demoId(`user:${login}`),
      loginName: login,
      name,
      dept: dept.key,
      position: rng.pick(dept.positions),
      roles: rng.pick(STAFF_ROLES[dept.key] ?? [['11']]),
      phone: phone(rng),
      email: `${login}@huajian.example.cn`,
    });
  }
  return users;
}

export async function insertCompany(db: Kysely<Database>, users: DemoUser[], passwordHash: string, now: string): Promise<void> {
  const managerOf = new Map<string, string>();
  for (const u of users) if (!managerOf.has(u.dept) && u.loginName !== 'admin') managerOf.set(u.dept, u.id);
  // Parents before children: DEPARTMENTS is ordered that way.
  for (const [i, d] of DEPARTMENTS.entries()) {
    await db
      .insertInto('departments')
      .values({
        id: demoId(`dept:${d.key}`),
        parent_id: d.parent ? demoId(`dept:${d.parent}`) : null,
        name: d.name,
        sort: i,
        manager_id: null,
        created_at: now,
        updated_at: now,
      })
      .execute();
  }
  for (const u of users) {
    await db
      .insertInto('users')
      .values(
        newUserRow(
          { id: u.id, loginName: u.loginName, name: u.name, deptId: demoId(`dept:${u.dept}`), position: u.position, phone: u.phone, email: u.email, passwordHash, initialPassword: false },
          now,
        ),
      )
      .execute();
    if (u.roles.length) await db.insertInto('user_roles').values(u.roles.map((role) => ({ user_id: u.id, role }))).execute();
  }
  for (const [dept, managerId] of managerOf) {
    await db.updateTable('departments').set({ manager_id: managerId }).where('id', '=', demoId(`dept:${dept}`)).execute();
  }
}
