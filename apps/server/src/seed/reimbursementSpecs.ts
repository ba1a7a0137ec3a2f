/**
 * The demo reimbursements' specs (seed/reimbursement.ts turns them into rows): the generated bills —
 * trips (transport out and back, hotel nights, the allowance, sometimes a taxi) and daily expenses — with
 * their fates (waiting, pushed, failed, revoked, revocation refused, in approval), then the FY01
 * instances the workflow seed replayed, each a bill of its own. The draws are the seed's RNG's, in the
 * order they always were: the demo stays the same.
 */
import type { Kysely } from 'kysely';
import { FlowState } from '@zhyy/shared';
import type { Database } from '../db/schema.js';
import type { ReimbCategoryTable } from '../modules/reimbursement/tables.js';
import { wf } from '../modules/workflow/tables.js';
import type { DemoUser } from './company.js';
import { shanghaiDayBefore } from './incomeData.js';
import type { Rng } from './rng.js';
import {
  AIR, categoryOfFormOption, DAILY_REASONS, DESTINATIONS, HOTELS, pickDaily, RAIL, ROAD, seatOf, sourceOfCategory, TRAVEL_REASONS,
  type ExpenseSource,
} from './reimbursementData.js';

export const REIMB_DEMO_DAYS = 360;
export const DAY = 86_400_000;
export const HOUR = 3_600_000;
export const dayStart = (day: string) => Date.parse(`${day}T00:00:00+08:00`);

export type Fate = 'draft' | 'approving' | 'returned' | 'waiting' | 'pushed' | 'failed' | 'revoked' | 'revokeRefused';

export interface LineSpec {
  code: string;
  src: ExpenseSource | null;
  date: string;
  gross: number;
  city: string;
  nights: number | null;
  seat: string;
  description: string;
  approved: number | null;
  note: string;
}

export interface BillSpec {
  ms: number;
  applicant: DemoUser;
  reason: string;
  from: string;
  to: string;
  project: string;
  lines: LineSpec[];
  fate: Fate;
  approvedMs: number;
  pushedMs: number;
  /** A replayed FY01 instance this bill belongs to. */
  instance?: { workId: number; submittedAt: string | null; approvedAt: string | null };
  id?: string;
  no?: string;
}

export interface Standard {
  hotel: number;
  seats: string;
  allowance: number;
}

export interface SpecInputs {
  rng: Rng;
  nowMs: number;
  perMonth: number;
  people: DemoUser[];
  gradeOf: (u: DemoUser) => string;
  categories: Map<string, ReimbCategoryTable>;
  tiers: Map<string, number>;
  standards: Map<string, Standard>;
}

/** The generated bills' specs, about perMonth × 12, with their fates. */
export function drawSpecs({ rng, nowMs, perMonth, people, gradeOf, categories, tiers, standards }: SpecInputs): BillSpec[] {
  const total = Math.max(12, Math.round(perMonth * 12));
  const specs: BillSpec[] = [];
  const destWeight = DESTINATIONS.reduce((a, [, w]) => a + w, 0);
  const pickDest = () => {
    let r = rng.next() * destWeight;
    for (const [c, w] of DESTINATIONS) if ((r -= w) < 0) return c;
    return DESTINATIONS[0]![0];
  };
  for (let i = 0; i < total; i++) {
    const ms = Math.min(nowMs - 30 * 60_000, nowMs - Math.round(((total - i) / total) * REIMB_DEMO_DAYS * DAY) + rng.int(0, 20 * 3600) * 1000);
    const applicant = rng.pick(people);
    const grade = gradeOf(applicant);
    const to = shanghaiDayBefore(new Date(ms), rng.int(1, 12));
    const lines: LineSpec[] = [];
    let from = to;
    let reason: string;
    if (rng.chance(0.45)) {
      // A trip: out and back, hotel nights, the allowance, sometimes a taxi.
      const city = pickDest();
      const nights = rng.int(1, 4);
      from = shanghaiDayBefore(new Date(dayStart(to) + 12 * HOUR), nights);
      const tier = tiers.get(city) ?? 3;
      const st = standards.get(`${grade}:${tier}`) ?? { hotel: 40_000, seats: '二等座', allowance: 8_000 };
      const src = tier === 1 && ['北京', '广州', '深圳'].includes(city) ? (rng.chance(0.7) ? AIR : RAIL) : rng.chance(0.85) ? RAIL : ROAD;
      const fare = rng.int(src.min, src.max);
      for (const [date, dir] of [[from, '去程'], [to, '返程']] as const) {
        lines.push({ code: '0101', src, date, gross: fare + rng.int(-500, 500), city, nights: null, seat: seatOf(src.kind, rng.next(), grade === 'leader'), description: `南京—${city}${dir}`.replace(/—(.+)返程$/, (_, c) => `${c}—南京返程`), approved: null, note: '' });
      }
      const price = Math.round((st.hotel * (0.55 + 0.6 * rng.next())) / 100) * 100;
      const hotel: LineSpec = { code: '0102', src: rng.pick(HOTELS), date: to, gross: price * nights, city, nights, seat: '', description: `${city}住宿${nights}晚`, approved: null, note: '' };
      if (price > st.hotel && rng.chance(0.6)) Object.assign(hotel, { approved: st.hotel * nights, note: '超出住宿标准，按标准核定' });
      lines.push(hotel);
      if (rng.chance(0.8)) lines.push({ code: '0103', src: null, date: to, gross: st.allowance * (nights + 1), city, nights: nights + 1, seat: '', description: `出差补助${nights + 1}天`, approved: null, note: '' });
      if (rng.chance(0.3)) {
        const taxi = sourceOfCategory('0201');
        lines.push({ code: '0201', src: taxi, date: from, gross: rng.int(taxi.min, taxi.max), city, nights: null, seat: '', description: `${city}市内交通`, approved: null, note: '' });
      }
      reason = `赴${city}${rng.pick(TRAVEL_REASONS)}`;
    } else {
      const n = rng.int(2, 6);
      from = shanghaiDayBefore(new Date(dayStart(to) + 12 * HOUR), rng.int(3, 25));
      const span = Math.round((dayStart(to) - dayStart(from)) / DAY);
      for (let k = 0; k < n; k++) {
        const src = pickDaily(rng.next());
        const date = shanghaiDayBefore(new Date(dayStart(to) + 12 * HOUR), rng.int(0, span));
        const gross = Math.round(src.min * (src.max / src.min) ** rng.next());
        lines.push({ code: src.category, src, date, gross, city: '', nights: null, seat: '', description: `${categories.get(src.category)?.name ?? ''}${src.category === '0301' ? '（客户接待）' : ''}`, approved: null, note: '' });
      }
      lines.sort((a, b) => a.date.localeCompare(b.date));
      reason = rng.pick(DAILY_REASONS);
    }
    const approvedMs = ms + rng.int(1, 4) * DAY + rng.int(0, 8 * 3600) * 1000;
    const pushedMs = approvedMs + rng.int(1, 8) * DAY + rng.int(0, 6 * 3600) * 1000;
    const fate: Fate = approvedMs >= nowMs || i >= total - 3 ? 'approving' : pushedMs >= nowMs ? 'waiting' : 'pushed';
    specs.push({ ms, applicant, reason, from, to, project: '', lines, fate, approvedMs, pushedMs });
  }
  // At least a few waiting for 一键报销; a few failed, revoked, revocations refused — among the last 90 days' pushed ones.
  const pushed = specs.filter((s) => s.fate === 'pushed');
  const recent = pushed.filter((s) => s.pushedMs > nowMs - 90 * DAY);
  const take = (n: number, from: BillSpec[], fate: Fate) => {
    for (let k = 0; k < n; k++) {
      const cands = from.filter((s) => s.fate === 'pushed');
      if (!cands.length) return;
      cands[rng.int(0, cands.length - 1)]!.fate = fate;
    }
  };
  const waiting = specs.filter((s) => s.fate === 'waiting').length;
  if (waiting < 3) pushed.slice(-(3 - waiting)).forEach((s) => (s.fate = 'waiting'));
  take(Math.max(2, Math.round(total * 0.012)), recent, 'failed');
  take(Math.max(2, Math.round(total * 0.008)), recent, 'revoked');
  take(Math.max(1, Math.round(total * 0.002)), recent, 'revokeRefused');
  // The company's leaders have nobody above them for the department-manager step: bills in approval are the staff's.
  const staff = people.filter((u) => u.dept !== 'company');
  for (const s of specs) if (s.fate === 'approving' && s.applicant.dept === 'company') s.applicant = rng.pick(staff);
  return specs;
}

/** Appends the FY01 instances the workflow seed replayed (not yet a bill's), each a bill of its own. */
export async function addReplayedSpecs(db: Kysely<Database>, specs: BillSpec[], byId: Map<string, DemoUser>): Promise<void> {
  const replayed = await wf(db)
    .selectFrom('wf_instances')
    .select(['work_id', 'starter_id', 'state', 'form_data', 'created_at', 'started_at', 'finished_at'])
    .where('flow_no', '=', 'FY01')
    .where('record_id', 'is', null)
    .where('state', '<>', FlowState.deleted)
    .orderBy('work_id')
    .execute();
  for (const inst of replayed) {
    const applicant = byId.get(inst.starter_id);
    if (!applicant) continue;
    const form = JSON.parse(inst.form_data) as { reason?: string; period?: [string, string]; project?: string; lines?: Array<{ category: string; date: string; description?: string; amount: number }> };
    const ms = Date.parse(inst.created_at);
    const lines: LineSpec[] = (form.lines ?? []).map((l) => {
      const code = categoryOfFormOption(l.category);
      const hotel = code === '0102';
      return { code, src: sourceOfCategory(code), date: l.date, gross: Number(l.amount), city: hotel ? '上海' : '', nights: hotel ? Math.max(1, Math.min(5, Math.round(Number(l.amount) / 45_000))) : null, seat: '', description: l.description ?? '', approved: null, note: '' };
    });
    if (!lines.length) continue;
    const fate: Fate = inst.state === FlowState.draft ? 'draft' : inst.state === FlowState.returned ? 'returned' : inst.state === FlowState.complete ? 'waiting' : 'approving';
    const [from, to] = form.period ?? [lines[0]!.date, lines[0]!.date];
    specs.push({
      ms, applicant, reason: form.reason ?? '费用报销', from, to, project: form.project ?? '', lines, fate, approvedMs: inst.finished_at ? Date.parse(inst.finished_at) : 0, pushedMs: 0,
      instance: { workId: Number(inst.work_id), submittedAt: inst.started_at, approvedAt: inst.finished_at },
    });
  }
}
