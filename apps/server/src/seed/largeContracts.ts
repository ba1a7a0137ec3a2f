/**
 * The large mode of 合同与项目 (`npm run seed -- --contracts 100000`, issue 30): appends generated contracts
 * and their projects to a database that holds the demo company, in batches, each batch in its own
 * transaction. Contract i and project j are pure functions of their numbers and the demo staff (their own
 * seeded streams), so a load is the same on every machine and resumes where it stopped (the contracts of
 * the large series already there are skipped).
 *
 * - Shape: in every ten contracts one frame contract (框架协议) with four orders under it (订单, parent the
 *   frame, same customer and project) and five single contracts (单项合同); one project per five contracts.
 * - Spread: signing days over five years ending 2026-11-20; construction 5–30 days after signing for
 *   120–720 days; 竣工验收 90–600 days after signing for four in five of those already past.
 *   Projects: 在建 35 %, 停工 10 %, 完工 55 % (with an end day); managers from the demo staff, none marked
 *   注册建造师 (the rule's one-active-project index is the demo's to show).
 * - What the large series leaves out: page scans (the list shows 缺N页 for them) and tender exports. The
 *   tender PDF's benchmark (bench/tender-pdf.mjs) merges scanned sources it generates on disk.
 * Codes TB-L-KJ|DD|HT-{10 digits} and TB-L-XM-{8 digits}; ids of the series 6f1c9381…/9382….
 */
import { sql, type Insertable } from 'kysely';
import { ContractType, ProjectState } from '@zhyy/shared';
import type { Db } from '../db/index.js';
import type { ContractTable, ProjectTable } from '../modules/tender/tables.js';
import { bulkInsert } from './bulk.js';
import { incomeRowId } from './incomeData.js';
import { BUYERS } from './invoiceData.js';
import { Rng } from './rng.js';

export const LARGE_CONTRACT_SEED = 20261730;
const T = { project: 0x9381, contract: 0x9382 } as const;
const DAY = 86_400_000;
const END_DAY = Date.UTC(2026, 10, 20);
const AT = '2026-11-20T08:00:00.000Z';
const pad = (n: number, w: number) => String(n).padStart(w, '0');
const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const PLACES = ['南京市江北新区', '南京市江宁区', '苏州工业园区', '无锡市新吴区', '常州市武进区', '南通市崇川区', '扬州市邗江区', '镇江市京口区', '徐州市鼓楼区', '盐城市亭湖区'];
const WORKS = ['道路改造', '综合管廊', '雨污分流', '桥梁加固', '景观提升', '管网更新', '河道整治', '路灯照明', '停车场建设', '校舍改建', '厂房扩建', '污水处理厂'];
/** Contracts per project (a frame's orders fall in its project), per group (the frame, its orders, then single contracts). */
const PER_PROJECT = 5;
const PER_GROUP = 10;
const ORDERS = 4;

export const largeContractId = (i: number) => incomeRowId(T.contract, i);
export const largeProjectId = (j: number) => incomeRowId(T.project, j);

/** The demo staff (managers), in a fixed order. */
export async function largeContractStaff(db: Db): Promise<string[]> {
  const staff = (await db.kysely.selectFrom('users').select(['id', 'login_name']).where('status', '=', 1).orderBy('id').execute()).filter((u) => u.login_name !== 'admin').map((u) => u.id);
  if (!staff.length) throw new Error('the large mode of 合同 needs the demo company (its staff)');
  return staff;
}

/** Project j (0-based) of the large mode. */
export function largeProject(j: number, staff: string[]): Insertable<ProjectTable> {
  const r = new Rng(LARGE_CONTRACT_SEED * 37 + j * 6007);
  const start = END_DAY - r.int(60, 5 * 365) * DAY;
  const x = r.next();
  const state = x < 0.55 ? ProjectState.finished : x < 0.9 ? ProjectState.building : ProjectState.suspended;
  const end = state === ProjectState.finished ? Math.min(END_DAY, start + r.int(90, 700) * DAY) : null;
  const location = r.pick(PLACES);
  return {
    id: largeProjectId(j), code: `TB-L-XM-${pad(j + 1, 8)}`, name: `${location.replace(/^.*市/, '')}${r.pick(WORKS)}工程（${location.replace(/市.*$/, '')}L${j + 1}标段）`,
    customer: r.pick(BUYERS).name, amount: r.int(50, 8000) * 1_000_000, source: 2, is_temp: 0, location, start_date: day(start), end_date: end === null ? null : day(end), state,
    manager_id: r.pick(staff), manager_registered: 0, updated_by: '系统', created_at: AT, updated_at: AT,
  };
}

/** Contract i (0-based) of the large mode: a frame, an order of the frame before it, or a single contract. */
export function largeContract(i: number, staff: string[]): Insertable<ContractTable> {
  const r = new Rng(LARGE_CONTRACT_SEED * 31 + i * 7919);
  const g = Math.floor(i / PER_GROUP);
  const at = i % PER_GROUP;
  const type = at === 0 ? ContractType.frame : at <= ORDERS ? ContractType.order : ContractType.single;
  // A frame's orders share its customer and project, and are signed after it.
  const frame = new Rng(LARGE_CONTRACT_SEED * 41 + g * 104_729);
  const frameSigned = END_DAY - frame.int(30, 5 * 365) * DAY;
  const frameCustomer = frame.pick(BUYERS).name;
  const signed = type === ContractType.frame ? frameSigned : type === ContractType.order ? Math.min(END_DAY, frameSigned + r.int(10, 700) * DAY) : END_DAY - r.int(10, 5 * 365) * DAY;
  const accepted = signed + r.int(90, 600) * DAY;
  const year = day(signed).slice(0, 4);
  const kind = type === ContractType.frame ? 'KJ' : type === ContractType.order ? 'DD' : 'HT';
  const name =
    type === ContractType.frame ? `${r.pick(WORKS)}框架协议（${year}—${Number(year) + 2}年）`
    : type === ContractType.order ? `${r.pick(WORKS)}订单（第${at}批）`
    : `${r.pick(PLACES).replace(/^.*市/, '')}${r.pick(WORKS)}施工合同`;
  const amount = (type === ContractType.frame ? r.int(20, 400) * 10 : type === ContractType.order ? r.int(5, 300) : r.int(10, 5000)) * 1_000_000;
  return {
    id: largeContractId(i), code: `TB-L-${kind}-${pad(i + 1, 10)}`, name, customer: type === ContractType.single ? r.pick(BUYERS).name : frameCustomer,
    project_id: largeProjectId(Math.floor(i / PER_PROJECT)), contract_type: type, amount, source: 2, is_temp: 0,
    parent_id: type === ContractType.order ? largeContractId(g * PER_GROUP) : null, signed_on: day(signed), work_from: day(signed + r.int(5, 30) * DAY),
    work_to: day(signed + r.int(120, 720) * DAY), accepted_on: accepted <= END_DAY && r.chance(0.8) ? day(accepted) : null, manager_id: r.pick(staff), remark: '',
    updated_by: '系统', created_at: AT, updated_at: AT,
  };
}

export interface LargeContractOptions {
  contracts: number;
  /** Contracts per transaction. */
  batch?: number;
  log?: (line: string) => void;
}

/** Loads contracts 0 … n−1 of the large mode (and their projects) that are not there yet; returns how many it added. */
export async function seedLargeContracts(db: Db, opts: LargeContractOptions): Promise<number> {
  const k = db.kysely;
  const log = opts.log ?? (() => undefined);
  const batch = opts.batch ?? 5000;
  const have = Number((await k.selectFrom('contracts').select(sql<number>`count(*)`.as('n')).where('id', '>=', largeContractId(0)).where('id', '<', incomeRowId(T.contract + 1, 0)).executeTakeFirstOrThrow()).n);
  if (have >= opts.contracts) return 0;
  const staff = await largeContractStaff(db);
  const started = Date.now();
  let added = 0;
  for (let from = have; from < opts.contracts; from += batch) {
    const to = Math.min(opts.contracts, from + batch);
    // The projects first used by this batch's contracts (project p by contract 5p).
    const firstProject = Math.ceil(from / PER_PROJECT);
    const projects = Array.from({ length: Math.max(0, Math.ceil(to / PER_PROJECT) - firstProject) }, (_, j) => largeProject(firstProject + j, staff));
    const contracts = Array.from({ length: to - from }, (_, j) => largeContract(from + j, staff));
    await k.transaction().execute(async (trx) => {
      await bulkInsert(trx, 'projects', projects);
      await bulkInsert(trx, 'contracts', contracts);
    });
    added += contracts.length;
    if ((from / batch) % 5 === 0 || to >= opts.contracts) log(`  ${to} / ${opts.contracts} contracts (${Math.round((added * 1000) / Math.max(1, Date.now() - started))} a second)`);
  }
  log('  analysing…');
  for (const t of ['projects', 'contracts']) await sql.raw(db.dialect === 'postgres' ? `vacuum analyze ${t}` : `analyze ${t}`).execute(k);
  return added;
}
