/**
 * 系统管理 / 申报日历 (issue 29 item 9): the filing calendar by year — the notices of the State Taxation
 * Administration shipped in packages/shared (filing-calendar.ts), the years an administrator entered
 * (filing_calendars), the years computed by the rule — and the administrator's entry of a year without a
 * release. A published year cannot be replaced (its notice wins). Each entry is in the operation log.
 * The deadlines are read through integrations/tax/calendar.ts by the tax simulator and so by every page
 * that shows a period's deadline (抵扣勾选, 抵扣统计, 退税统计).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  FILING_SOURCE_LABELS, FilingCalendarDeleteBody, FilingCalendarSaveBody, OperationLogType, PUBLISHED_FILING_CALENDARS, filingCalendarYear, filingCalendarYears,
  type FilingCalendarView, type FilingCalendarYearView,
} from '@zhyy/shared';
import { enteredCalendars } from '../../integrations/tax/calendar.js';
import { pages } from '../../platform/access.js';
import { ok, refuse } from '../../platform/envelope.js';
import { shanghaiDay } from '../../platform/listing.js';
import { typed } from '../../platform/route.js';
import { nowIso } from '../../platform/time.js';

const PAGE = pages('/system/filing-calendar');
const monthDay = (d: string) => `${Number(d.slice(5, 7))}月${Number(d.slice(8, 10))}日`;

export const FilingCalendarMessages = {
  published: (year: number) => `${year}年的申报日历已按税务总局公布的通知内置，不能修改`,
  notEntered: (year: number) => `${year}年的申报日历未录入，无需删除`,
} as const;

async function view(app: FastifyInstance): Promise<FilingCalendarView> {
  const rows = await app.db.kysely.selectFrom('filing_calendars').selectAll().execute();
  const meta = new Map(rows.map((r) => [Number(r.year), r]));
  const entered = await enteredCalendars(app.db.kysely);
  const years: FilingCalendarYearView[] = filingCalendarYears(shanghaiDay(), entered).map((year) => {
    const c = filingCalendarYear(year, entered);
    const m = meta.get(year);
    return {
      year,
      source: c.source,
      sourceLabel: FILING_SOURCE_LABELS[c.source],
      basis: c.basis,
      ...(c.url ? { url: c.url } : {}),
      days: c.days,
      enteredDays: entered.get(year) ?? null,
      updatedBy: m?.updated_by ?? '',
      updatedAt: m?.updated_at ?? null,
      editable: !PUBLISHED_FILING_CALENDARS[year],
    };
  });
  return { years };
}

async function save(app: FastifyInstance, req: FastifyRequest, body: FilingCalendarSaveBody): Promise<void> {
  if (PUBLISHED_FILING_CALENDARS[body.year]) throw refuse(FilingCalendarMessages.published(body.year));
  const user = req.user!;
  await app.db.kysely.transaction().execute(async (trx) => {
    const before = await trx.selectFrom('filing_calendars').select('year').where('year', '=', body.year).executeTakeFirst();
    const values = { days: JSON.stringify(body.deadlines), updated_by: user.name, updated_at: nowIso() };
    await trx
      .insertInto('filing_calendars')
      .values({ year: body.year, ...values })
      .onConflict((oc) => oc.column('year').doUpdateSet(values))
      .execute();
    const list = body.deadlines.map(monthDay).join('、');
    await app.oplog.record(req, before ? OperationLogType.edit : OperationLogType.add, `${before ? '修改' : '录入'}${body.year}年申报日历：${list}`, trx);
  });
}

/** Takes an entered year back: the year is computed again (or published, should its notice be shipped since). */
async function remove(app: FastifyInstance, req: FastifyRequest, year: number): Promise<void> {
  await app.db.kysely.transaction().execute(async (trx) => {
    const gone = await trx.deleteFrom('filing_calendars').where('year', '=', year).executeTakeFirst();
    if (!Number(gone.numDeletedRows)) throw refuse(FilingCalendarMessages.notEntered(year));
    await app.oplog.record(req, OperationLogType.delete, `删除${year}年申报日历（改为按规则推算）`, trx);
  });
}

export async function filingCalendarRoutes(app: FastifyInstance): Promise<void> {
  const r = typed(app);
  const tags = ['申报日历'];
  r.post('/api/system/filing-calendar/list', { schema: { body: z.object({}), summary: '申报日历：各年度1-12月的申报期限及来源（税务总局公布 > 管理员录入 > 按规则推算）', tags }, config: { access: PAGE } }, async () => ok(await view(app)));
  r.post('/api/system/filing-calendar/save', { schema: { body: FilingCalendarSaveBody, summary: '录入或替换一个年度的申报日历（税务总局已公布的年度不能修改）', tags }, config: { access: PAGE } }, async (req) => {
    await save(app, req, req.body);
    return ok(await view(app), '保存成功');
  });
  r.post('/api/system/filing-calendar/delete', { schema: { body: FilingCalendarDeleteBody, summary: '删除管理员录入的一个年度（改为按规则推算）', tags }, config: { access: PAGE } }, async (req) => {
    await remove(app, req, req.body.year);
    return ok(await view(app), '删除成功');
  });
}
