/**
 * Certificate expiry reminders (issue 17): at 90, 60, 30 and 7 days before a certificate's end day a
 * message to its holder, and to the users holding role 6 or 15 one message a round listing the
 * certificates newly reminded. Once per certificate, end day and mark: the key of
 * tender_cert_reminders, written in the same transaction as the messages (insert … on conflict do
 * nothing), so a second round, a second server or two rounds at once never send a mark twice. A
 * renewed certificate (a later end day) is reminded again. The job runs under the lease
 * 'tender-cert-reminders' at start and then hourly (a round is idempotent). The marks are 投标设置's
 * reminder days (default 90, 60, 30, 7).
 *
 * A round sends the smallest mark already reached (reminderMark): a server down on the 60-day mark
 * sends it the next day, and never an earlier, larger mark after a smaller one.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import { reminderMark } from '@zhyy/shared';
import type { Db } from '../../../db/index.js';
import type { Database } from '../../../db/schema.js';
import { LeasedJob, type LeaseHandle } from '../../../platform/leases.js';
import { shanghaiDay } from '../../../platform/listing.js';
import { nowIso } from '../../../platform/time.js';
import { notifyUser } from '../../messages/service.js';
import { sendExceptionReminders } from '../contracts/exceptions.js';
import { tenderSettings } from '../setting/settings.js';
import { dayAfter } from './queries.js';
import './tables.js';

export const REMINDER_LEASE = 'tender-cert-reminders';
export const REMINDER_TTL_MS = 5 * 60_000;
/** Hourly: a round is cheap and idempotent, so a new day's mark goes out within an hour of midnight. */
export const REMINDER_INTERVAL_MS = 3600_000;
/** The roles told about every certificate reminded (投标经理, 证书管理员). */
export const REMINDER_ROLES = ['6', '15'] as const;
const COLLECT_LINK = '/tender/personnel-certificate/collect';
const BATCH = 200;

/** The reminder days: 投标设置's (tenderSettings, its default CERT_REMIND_DAYS). */
export async function remindDays(db: Kysely<Database>): Promise<readonly number[]> {
  return (await tenderSettings(db)).remindDays;
}

export interface ReminderRoundResult {
  /** Certificates newly reminded this round. */
  sent: number;
  messages: number;
}

/** One round on `day`: every certificate whose current mark has not been sent yet. */
export async function sendReminders(db: Kysely<Database>, day: string, check: () => Promise<void> = async () => undefined): Promise<ReminderRoundResult> {
  const marks = await remindDays(db);
  if (!marks.length) return { sent: 0, messages: 0 };
  const horizon = dayAfter(day, Math.max(...marks));
  const due = await db
    .selectFrom('tender_certificates as c')
    .innerJoin('users as u', 'u.id', 'c.user_id')
    .innerJoin('tender_cert_kinds as k', 'k.id', 'c.kind_id')
    .leftJoin('tender_cert_reminders as r', (j) => j.onRef('r.cert_id', '=', 'c.id').onRef('r.valid_to', '=', 'c.valid_to'))
    .select(['c.id', 'c.user_id', 'c.valid_to', 'c.cert_no', 'c.level', 'u.name as holder', 'u.status', 'k.name as kind', 'r.mark as sent_mark'])
    .where('c.valid_to', '>=', day)
    .where('c.valid_to', '<=', horizon)
    .orderBy('c.valid_to')
    .orderBy('c.id')
    .execute();
  // The smallest mark sent so far per certificate and end day (several rows when several marks were sent).
  const least = new Map<string, number>();
  for (const d of due) if (d.sent_mark !== null) least.set(d.id, Math.min(least.get(d.id) ?? Infinity, d.sent_mark));
  const seen = new Set<string>();
  const todo: Array<(typeof due)[number] & { mark: number }> = [];
  for (const d of due) {
    if (seen.has(d.id)) continue;
    seen.add(d.id);
    const mark = reminderMark(d.valid_to, day, marks);
    if (mark === null || (least.get(d.id) ?? Infinity) <= mark) continue;
    todo.push({ ...d, mark });
  }
  let sent = 0;
  let messages = 0;
  for (let i = 0; i < todo.length; i += BATCH) {
    await check();
    const batch = todo.slice(i, i + BATCH);
    const r = await db.transaction().execute(async (trx) => {
      const now = nowIso();
      const fresh: typeof batch = [];
      for (const c of batch) {
        const row = await trx
          .insertInto('tender_cert_reminders')
          .values({ cert_id: c.id, valid_to: c.valid_to!, mark: c.mark, sent_on: day, created_at: now })
          .onConflict((oc) => oc.columns(['cert_id', 'valid_to', 'mark']).doNothing())
          .returning('cert_id')
          .executeTakeFirst();
        if (row) fresh.push(c);
      }
      let n = 0;
      for (const c of fresh) {
        if (c.status !== 1) continue;
        await notifyUser(trx, c.user_id, {
          title: `您的${c.kind}证书将于${c.valid_to}到期`,
          content: `您的${c.kind}${c.level ? `（${c.level}）` : ''}证书 ${c.cert_no} 将于 ${c.valid_to} 到期（还有${c.mark}天以内），请及时办理延续或重新注册，并将新证书交证书管理员登记。`,
          link: COLLECT_LINK,
        });
        n++;
      }
      if (fresh.length) {
        const managers = await trx
          .selectFrom('users as u')
          .innerJoin('user_roles as r', 'r.user_id', 'u.id')
          .select('u.id')
          .distinct()
          .where('u.status', '=', 1)
          .where('r.role', 'in', [...REMINDER_ROLES])
          .execute();
        const lines = fresh.slice(0, 20).map((c) => `${c.holder} ${c.kind}${c.level ? `（${c.level}）` : ''} ${c.cert_no}：${c.valid_to} 到期`);
        const more = fresh.length > 20 ? `\n……共 ${fresh.length} 本，详见证书汇总。` : '';
        for (const m of managers) {
          await notifyUser(trx, m.id, { title: `${fresh.length} 本资格证书即将到期`, content: `以下证书将在${Math.max(...fresh.map((c) => c.mark))}天内到期：\n${lines.join('\n')}${more}`, link: COLLECT_LINK });
          n++;
        }
      }
      return { sent: fresh.length, messages: n };
    });
    sent += r.sent;
    messages += r.messages;
  }
  return { sent, messages };
}

export interface ReminderJobOptions {
  intervalMs?: number;
  holder?: string;
  now?: () => Date;
}

export class CertReminderJob extends LeasedJob {
  private readonly now: () => Date;
  last: ReminderRoundResult = { sent: 0, messages: 0 };

  constructor(private readonly deps: { db: Db; log: FastifyBaseLogger }, opts: ReminderJobOptions = {}) {
    super({ db: deps.db, log: deps.log, name: REMINDER_LEASE, intervalMs: opts.intervalMs ?? REMINDER_INTERVAL_MS, ttlMs: REMINDER_TTL_MS, releaseAfterRound: true, round: (lease) => this.remind(lease), ...(opts.holder ? { holder: opts.holder } : {}) });
    this.now = opts.now ?? (() => new Date());
  }

  private async remind(lease: LeaseHandle): Promise<void> {
    const day = shanghaiDay(this.now());
    this.last = await sendReminders(this.deps.db.kysely, day, () => lease.check());
    if (this.last.sent) this.deps.log.info(this.last, 'certificate expiry reminders sent');
    // The same round reminds the managers of the registered-builder exceptions ending soon (contracts/exceptions.ts).
    const ex = await sendExceptionReminders(this.deps.db.kysely, day, () => lease.check());
    if (ex.reminded) this.deps.log.info(ex, 'manager exception end reminders sent');
  }
}
