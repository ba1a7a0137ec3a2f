/**
 * Issue 17, certificate expiry reminders (modules/tender/people/reminders.ts): at 90, 60, 30 and 7
 * days a message to the holder and one to each user holding role 6 or 15; a mark once per certificate
 * and end day whatever runs it (a second round, two rounds at once on two servers); a later mark after
 * an earlier one; a renewed certificate again; the demo seed's marks already recorded so a fresh server
 * sends nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoId, newId } from '../src/platform/ids.js';
import { sendReminders } from '../src/modules/tender/people/reminders.js';
import { CertReminderJob } from '../src/modules/tender/people/reminders.js';
import { certKindId } from '../src/seed/tender-people.js';
import '../src/modules/tender/people/tables.js';
import '../src/modules/messages/tables.js';
import { startTestServer, type TestServer } from './helpers.js';

let s: TestServer;
let s2: TestServer;
const db = () => s.db.kysely;
// Beyond every demo certificate's end day (the longest kind lasts 6 years), so only this file's certificates are due.
const DAY = '2040-06-01';
const addDays = (day: string, n: number) => {
  const t = new Date(`${day}T00:00:00Z`);
  t.setUTCDate(t.getUTCDate() + n);
  return t.toISOString().slice(0, 10);
};
const holder = demoId('user:demo9');
const now = new Date().toISOString();

beforeAll(async () => {
  s = await startTestServer();
  s2 = await startTestServer({ sameDatabaseAs: s });
});
afterAll(async () => {
  await s2?.close();
  await s?.close();
});

async function cert(no: string, validTo: string) {
  const id = newId();
  await db().insertInto('tender_certificates').values({ id, user_id: holder, kind_id: certKindId('aq'), level: 'A', speciality: '', cert_no: no, issuer: '', valid_from: '2028-01-01', valid_to: validTo, company: '', remark: '', updated_by: '测试', created_at: now, updated_at: now }).execute();
  return id;
}
const messages = (text: string) => db().selectFrom('user_messages').select(['user_id', 'title', 'content']).where((eb) => eb.or([eb('title', 'like', `%${text}%`), eb('content', 'like', `%${text}%`)])).execute();
const managers = async () =>
  (await db().selectFrom('users as u').innerJoin('user_roles as r', 'r.user_id', 'u.id').select('u.id').distinct().where('u.status', '=', 1).where('r.role', 'in', ['6', '15']).execute()).length;

describe('certificate reminders', () => {
  it('a fresh demo server has nothing left to send: the seed recorded the marks already due', async () => {
    const r = await sendReminders(db(), new Date(Date.now() + 8 * 3600_000).toISOString().slice(0, 10));
    expect(r.sent).toBe(0);
  });

  it('sends the 90-day mark once: the holder and every role 6/15 user get one message; a second round sends nothing', async () => {
    const id = await cert('RM-90', addDays(DAY, 90));
    await cert('RM-FAR', addDays(DAY, 91));
    const first = await sendReminders(db(), DAY);
    expect(first.sent).toBe(1);
    const m = await messages('RM-90');
    expect(m.filter((x) => x.user_id === holder)).toHaveLength(1);
    expect(m.filter((x) => x.user_id !== holder)).toHaveLength(await managers());
    expect(await messages('RM-FAR')).toHaveLength(0);
    expect((await sendReminders(db(), DAY)).sent).toBe(0);
    expect(await messages('RM-90')).toHaveLength(m.length);
    const rows = await db().selectFrom('tender_cert_reminders').select(['mark']).where('cert_id', '=', id).execute();
    expect(rows.map((r) => r.mark)).toEqual([90]);
    // Out of the way of the next rounds (its own 90-day mark would be due in them).
    await db().deleteFrom('tender_certificates').where('cert_no', '=', 'RM-FAR').execute();
  });

  it('then the 60, 30 and 7-day marks, each once; a missed day sends the current mark, not the passed ones', async () => {
    const id = (await db().selectFrom('tender_certificates').select('id').where('cert_no', '=', 'RM-90').executeTakeFirstOrThrow()).id;
    expect((await sendReminders(db(), addDays(DAY, 30))).sent).toBe(1); // 60 days left
    expect((await sendReminders(db(), addDays(DAY, 31))).sent).toBe(0);
    // The 30-day mark's day (60) is missed; on 70 (20 days left) the 30 mark goes out, once.
    expect((await sendReminders(db(), addDays(DAY, 70))).sent).toBe(1);
    expect((await sendReminders(db(), addDays(DAY, 83))).sent).toBe(1); // 7 days left
    expect((await sendReminders(db(), addDays(DAY, 90))).sent).toBe(0); // the last day: nothing new
    expect((await sendReminders(db(), addDays(DAY, 91))).sent).toBe(0); // expired
    const rows = await db().selectFrom('tender_cert_reminders').select('mark').where('cert_id', '=', id).orderBy('mark', 'desc').execute();
    expect(rows.map((r) => r.mark)).toEqual([90, 60, 30, 7]);
    expect((await messages('RM-90')).filter((x) => x.user_id === holder)).toHaveLength(4);
  });

  it('a renewed certificate (a later end day) is reminded again', async () => {
    await db().updateTable('tender_certificates').set({ valid_to: addDays(DAY, 200) }).where('cert_no', '=', 'RM-90').execute();
    expect((await sendReminders(db(), addDays(DAY, 110))).sent).toBe(1);
  });

  it('two rounds at once on two servers send each mark once', async () => {
    for (let i = 0; i < 5; i++) await cert(`RM-C${i}`, addDays(DAY, 300 + i));
    const day = addDays(DAY, 300 - 30);
    const [a, b] = await Promise.all([sendReminders(s.db.kysely, day), sendReminders(s2.db.kysely, day)]);
    expect(a.sent + b.sent).toBe(5);
    for (let i = 0; i < 5; i++) expect((await messages(`RM-C${i}`)).filter((x) => x.user_id === holder)).toHaveLength(1);
  });

  it('the job runs a round only under its lease: two servers ticking at once run one round', async () => {
    for (let i = 0; i < 3; i++) await cert(`RM-J${i}`, addDays(DAY, 500 + i));
    const clock = () => new Date(`${addDays(DAY, 500 - 7)}T04:00:00Z`);
    const j1 = new CertReminderJob({ db: s.db, log: s.app.log }, { now: clock });
    const j2 = new CertReminderJob({ db: s2.db, log: s2.app.log }, { now: clock });
    const [r1, r2] = await Promise.all([j1.tick(), j2.tick()]);
    expect(j1.last.sent + j2.last.sent).toBe(3);
    expect([r1, r2]).toContain(true);
    for (let i = 0; i < 3; i++) expect((await messages(`RM-J${i}`)).filter((x) => x.user_id === holder)).toHaveLength(1);
    await j1.stop();
    await j2.stop();
  });
});
