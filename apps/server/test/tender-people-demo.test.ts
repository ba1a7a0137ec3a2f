/**
 * Issue 17, the demo people and certificates at the demo volume (seed/tender-people.ts, tenderPeople 230):
 * 230 people (field staff added as users holding only role 2 普通员工, who sign in to 我的报销), every ID card number valid, about 650
 * certificates with some expired and some expiring within 90 days, numbers once per kind, every end day
 * derived from its start and kind, every mark already due recorded (so the job sends nothing at start);
 * 安全生产考核合格证书 and 安全生产许可证 renewed in the last 3 months, with some in that window today.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { certState, defaultValidTo, idCardProblem, inRenewalWindow, reminderMark, STAFF_ROLE } from '@zhyy/shared';
import { shanghaiDay } from '../src/platform/listing.js';
import { sendReminders } from '../src/modules/tender/people/reminders.js';
import '../src/modules/tender/people/tables.js';
import { startTestServer, TEST_DEMO, type TestServer } from './helpers.js';

let s: TestServer;
const k = () => s.db.kysely;
const today = shanghaiDay();

beforeAll(async () => {
  s = await startTestServer({ demoOptions: { ...TEST_DEMO, tenderPeople: 230 } });
}, 300_000);
afterAll(() => s?.close());

describe('the demo people', () => {
  it('230 people, each with a valid ID card number matching the birth day; the added field staff hold role 2 and sign in', async () => {
    const people = await k().selectFrom('tender_personnel').selectAll().execute();
    expect(people).toHaveLength(230);
    for (const p of people) {
      expect([p.id_card, idCardProblem(p.id_card)]).toEqual([p.id_card, null]);
      expect(p.id_card.slice(6, 14)).toBe(p.birth_date!.replace(/-/g, ''));
    }
    // Issue 31: nobody of the demo company is refused 权限不足 for holding no role.
    const roleless = await k().selectFrom('users as u').select('u.id').where((eb) => eb.not(eb.exists(eb.selectFrom('user_roles as r').select('r.user_id').whereRef('r.user_id', '=', 'u.id')))).execute();
    expect(roleless).toEqual([]);
    const staffOnly = await k().selectFrom('user_roles as r').innerJoin('users as u', 'u.id', 'r.user_id').select(['u.login_name', 'r.role'])
      .where('r.user_id', 'in', (eb) => eb.selectFrom('user_roles').select('user_id').where('role', '=', STAFF_ROLE)).execute();
    expect(staffOnly.length).toBeGreaterThan(150);
    expect(staffOnly.every((r) => r.role === STAFF_ROLE)).toBe(true);
    // One of them signs in, holds only role 2 and lists their own reimbursements; 报销台账 stays closed.
    const login = staffOnly[0]!.login_name;
    const token = await s.login(login);
    const info = await s.call('/api/account/userinfo', {}, token);
    expect([info.code, info.r.roles]).toEqual([20000, [STAFF_ROLE]]);
    expect((await s.call('/api/reimbursement/my/list', { pageIndex: 1, pageSize: 10 }, token)).code).toBe(20000);
    expect((await s.call('/api/reimbursement/ledger/list', { pageIndex: 1, pageSize: 10 }, token)).status).toBe(403);
  });

  it('about 650 certificates: some expired, some within 90 days; numbers once per kind; end days derived from the kind', async () => {
    const certs = await k().selectFrom('tender_certificates as c').innerJoin('tender_cert_kinds as k', 'k.id', 'c.kind_id').select(['c.id', 'c.kind_id', 'c.cert_no', 'c.valid_from', 'c.valid_to', 'k.valid_years']).execute();
    expect(certs.length).toBeGreaterThan(550);
    expect(certs.length).toBeLessThan(800);
    const states = certs.map((c) => certState(c.valid_to, today));
    const share = (st: string) => states.filter((x) => x === st).length / certs.length;
    expect(share('expired')).toBeGreaterThan(0.04);
    expect(share('expiring')).toBeGreaterThan(0.05);
    expect(new Set(certs.map((c) => `${c.kind_id}|${c.cert_no}`)).size).toBe(certs.length);
    for (const c of certs) expect([c.cert_no, defaultValidTo(c.valid_from, c.valid_years)]).toEqual([c.cert_no, c.valid_to]);
    const titles = await k().selectFrom('tender_titles').select('id').execute();
    expect(titles.length).toBeGreaterThan(80);
  });

  it('the two kinds DOMAIN names have a 3-month renewal window, the others none; some certificates are in it today', async () => {
    const kinds = await k().selectFrom('tender_cert_kinds').select(['name', 'renew_months']).execute();
    expect(kinds.filter((x) => x.renew_months !== null).map((x) => [x.name, x.renew_months]).sort()).toEqual([['安全生产考核合格证书', 3], ['安全生产许可证', 3]]);
    const certs = await k().selectFrom('tender_certificates as c').innerJoin('tender_cert_kinds as k', 'k.id', 'c.kind_id').select(['c.valid_to', 'k.renew_months']).execute();
    expect(certs.filter((c) => inRenewalWindow(c.valid_to, c.renew_months, today)).length).toBeGreaterThan(5);
  });

  it('every mark already due is recorded: a round now sends nothing', async () => {
    const certs = await k().selectFrom('tender_certificates').select(['id', 'valid_to']).execute();
    const due = certs.filter((c) => reminderMark(c.valid_to, today) !== null);
    const recorded = await k().selectFrom('tender_cert_reminders').select('cert_id').execute();
    expect(recorded).toHaveLength(due.length);
    expect((await sendReminders(k(), today)).sent).toBe(0);
  });
});
