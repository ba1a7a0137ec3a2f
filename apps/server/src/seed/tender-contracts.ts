/**
 * 投标管理 › 合同与项目 demo data (issue 17): the invoice seed's projects and contracts extended (location,
 * dates, state, manager; the invoice seed's order put under its frame contract), then more projects up to
 * 120 and about 40 frame contracts with ~300 orders and 200 single contracts over five years, managers
 * from the demo staff, some of them registered constructors (each leading at most one active project).
 * Test servers draw a smaller volume (`tenderFrames`, docs/tender.md). Page scans are not seeded here:
 * contracts have no pages until a demo seed of scans adds them (the list shows 缺N页).
 */
import { CONSTRUCTOR_KINDS, ContractType, ProjectState } from '@zhyy/shared';
import { demoId } from '../platform/ids.js';
import { bulkInsert } from './bulk.js';
import { BUYERS, CONTRACTS, PROJECTS } from './invoiceData.js';
import type { SeedContext } from './context.js';
import { Rng } from './rng.js';
import '../modules/tender/tables.js';
import '../modules/tender/people/tables.js';

const SEED = 20261717;
const DAY = 86_400_000;
/** Frame contracts of the demo (orders ≈ 7.5 a frame, single contracts 5 a frame, projects 3 a frame up to 120). */
export const TENDER_FRAMES = 40;

const PLACES = ['南京市江北新区', '南京市江宁区', '苏州工业园区', '无锡市新吴区', '常州市武进区', '南通市崇川区', '扬州市邗江区', '镇江市京口区', '徐州市鼓楼区', '盐城市亭湖区'];
const WORKS = ['道路改造', '综合管廊', '雨污分流', '桥梁加固', '景观提升', '管网更新', '河道整治', '路灯照明', '停车场建设', '校舍改建', '厂房扩建', '污水处理厂'];
const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const addDays = (d: string, n: number) => day(Date.parse(`${d}T00:00:00Z`) + n * DAY);

export async function seedTenderContracts(ctx: SeedContext): Promise<void> {
  const { db, now, users } = ctx;
  const frames = ctx.tenderFrames ?? TENDER_FRAMES;
  if (frames <= 0) return;
  const rng = new Rng(SEED);
  const today = day(now.getTime());
  const at = now.toISOString();
  const staff = users.filter((u) => u.loginName !== 'admin');
  // The registered constructors: a fifth of the staff, each leading at most one active project.
  const registered = staff.filter((_, i) => i % 5 === 0);
  const freeRegistered = [...registered];
  const pickManager = (active: boolean): { id: string; registered: number } => {
    if (active && freeRegistered.length && rng.chance(0.5)) return { id: freeRegistered.shift()!.id, registered: 1 };
    const u = rng.pick(staff.filter((s) => !registered.includes(s)));
    return { id: u.id, registered: 0 };
  };
  const projectFacts = () => {
    const start = addDays(today, -rng.int(60, 5 * 365));
    const r = rng.next();
    const state = r < 0.55 ? ProjectState.finished : r < 0.9 ? ProjectState.building : ProjectState.suspended;
    const end = state === ProjectState.finished ? addDays(start, rng.int(90, 700)) : null;
    return { start, end: end && end > today ? today : end, state, location: rng.pick(PLACES) };
  };

  // ---- The invoice seed's projects and contracts, extended ----
  const real = PROJECTS.filter((p) => !p.temp);
  for (const p of real) {
    const f = projectFacts();
    const m = pickManager(f.state !== ProjectState.finished);
    await db.updateTable('projects').set({ location: f.location, start_date: f.start, end_date: f.end, state: f.state, manager_id: m.id, manager_registered: m.registered }).where('id', '=', demoId(`project:${p.key}`)).execute();
  }
  const frameOf = CONTRACTS.find((c) => c.type === ContractType.frame);
  for (const c of CONTRACTS) {
    const signed = addDays(today, -rng.int(200, 700));
    await db.updateTable('contracts').set({
      signed_on: signed, work_from: addDays(signed, 15), work_to: addDays(signed, 380), accepted_on: rng.chance(0.5) ? addDays(signed, 160) : null, manager_id: rng.pick(staff).id,
      parent_id: c.type === ContractType.order && frameOf ? demoId(`contract:${frameOf.code}`) : null,
    }).where('id', '=', demoId(`contract:${c.code}`)).execute();
  }

  // ---- More projects, up to 3 a frame (120 for the demo) counting those already there ----
  const have = Number((await db.selectFrom('projects').select((eb) => eb.fn.countAll<number>().as('n')).where('is_temp', '=', 0).executeTakeFirstOrThrow()).n);
  const wanted = Math.max(0, Math.min(120, frames * 3) - have);
  const projects = Array.from({ length: wanted }, (_, i) => {
    const f = projectFacts();
    const m = pickManager(f.state !== ProjectState.finished);
    const place = f.location.replace(/市.*$/, '');
    return {
      id: demoId(`tender-project:${i + 1}`), code: `TB-XM-${String(i + 1).padStart(4, '0')}`, name: `${f.location.replace(/^.*市/, '')}${rng.pick(WORKS)}工程（${place}${i + 1}标段）`,
      customer: rng.pick(BUYERS).name, amount: rng.int(50, 8000) * 1_000_000, source: 2, is_temp: 0, location: f.location, start_date: f.start, end_date: f.end, state: f.state,
      manager_id: m.id, manager_registered: m.registered, updated_by: '系统', created_at: at, updated_at: at,
    };
  });
  await bulkInsert(db, 'projects', projects);
  const projectIds = [...real.map((p) => ({ id: demoId(`project:${p.key}`) })), ...projects];

  // ---- Frame contracts with their orders, single contracts, over five years ----
  const rows: object[] = [];
  const contract = (type: number, code: string, name: string, customer: string, amount: number, signed: string, parent: string | null, project: string) => {
    const accepted = addDays(signed, rng.int(90, 600));
    const id = demoId(`tender-contract:${code}`);
    rows.push({
      id, code, name, customer, project_id: project, contract_type: type, amount, source: 2, is_temp: 0, parent_id: parent, signed_on: signed, work_from: addDays(signed, rng.int(5, 30)),
      work_to: addDays(signed, rng.int(120, 720)), accepted_on: accepted <= today && rng.chance(0.8) ? accepted : null, manager_id: rng.pick(staff).id, remark: '',
      updated_by: '系统', created_at: at, updated_at: at,
    });
    return id;
  };
  const orderCount = Math.round(frames * 7.5);
  const perFrame = Array.from({ length: frames }, () => 1);
  for (let i = frames; i < orderCount; i++) perFrame[rng.int(0, frames - 1)]! += 1;
  for (let f = 0; f < frames; f++) {
    const signed = addDays(today, -rng.int(30, 5 * 365));
    const customer = rng.pick(BUYERS).name;
    const project = rng.pick(projectIds).id;
    const year = signed.slice(0, 4);
    const fid = contract(ContractType.frame, `TB-KJ-${year}-${String(f + 1).padStart(3, '0')}`, `${rng.pick(WORKS)}框架协议（${year}—${Number(year) + 2}年）`, customer, rng.int(20, 400) * 10_000_000, signed, null, project);
    for (let o = 0; o < perFrame[f]!; o++) {
      const os = addDays(signed, rng.int(10, 700));
      contract(ContractType.order, `TB-DD-${year}-${String(f + 1).padStart(3, '0')}-${String(o + 1).padStart(2, '0')}`, `${rng.pick(WORKS)}订单（第${o + 1}批）`, customer, rng.int(5, 300) * 1_000_000, os > today ? today : os, fid, project);
    }
  }
  for (let s = 0; s < frames * 5; s++) {
    const signed = addDays(today, -rng.int(10, 5 * 365));
    contract(ContractType.single, `TB-HT-${signed.slice(0, 4)}-${String(s + 1).padStart(4, '0')}`, `${rng.pick(PLACES).replace(/^.*市/, '')}${rng.pick(WORKS)}施工合同`, rng.pick(BUYERS).name, rng.int(10, 5000) * 1_000_000, signed, null, rng.pick(projectIds).id);
  }
  await bulkInsert(db, 'contracts', rows);
}

/**
 * After the people seeder: a project's 注册建造师 flag as the server derives it (contracts/projects.ts
 * isRegisteredConstructor: a valid 一级/二级建造师 certificate of the manager). A manager with one leads
 * at most one active project as registered (the rule's index); their other active projects, drawn before
 * the certificates existed, stay unmarked, as the rule would have refused them.
 */
export async function deriveRegisteredManagers(ctx: SeedContext): Promise<void> {
  const { db } = ctx;
  const today = day(ctx.now.getTime());
  const holders = new Set(
    (
      await db
        .selectFrom('tender_certificates as c')
        .innerJoin('tender_cert_kinds as k', 'k.id', 'c.kind_id')
        .select('c.user_id')
        .where('k.name', 'in', [...CONSTRUCTOR_KINDS])
        .where('c.valid_from', '<=', today)
        .where((eb) => eb.or([eb('c.valid_to', 'is', null), eb('c.valid_to', '>=', today)]))
        .execute()
    ).map((r) => r.user_id),
  );
  const projects = await db.selectFrom('projects').select(['id', 'manager_id', 'state']).where('manager_id', 'is not', null).orderBy('code').execute();
  const leading = new Set<string>();
  const marked: string[] = [];
  for (const p of projects) {
    if (!holders.has(p.manager_id!)) continue;
    const active = p.state === ProjectState.building || p.state === ProjectState.suspended;
    if (active && leading.has(p.manager_id!)) continue;
    if (active) leading.add(p.manager_id!);
    marked.push(p.id);
  }
  // Cleared first, so no moment has a manager marked on two active projects (the partial unique index).
  await db.updateTable('projects').set({ manager_registered: 0 }).where('manager_registered', '=', 1).execute();
  for (let i = 0; i < marked.length; i += 500) await db.updateTable('projects').set({ manager_registered: 1 }).where('id', 'in', marked.slice(i, i + 500)).execute();
}
