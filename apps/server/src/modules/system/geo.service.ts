/**
 * Sign-in locations. The sessions table is the record of every sign-in (IP, time); each one is
 * resolved once with the offline IP database into sign_in_locations, in sign-in order, marking the
 * sign-ins from a place the user had never signed in from before. Resolution happens when the
 * locations are read (catch-up), so the account module's sign-in path stays untouched and fast.
 */
import type { Kysely } from 'kysely';
import type { GeoListQuery, GeoStatRow, PageResult, SignInLocationRow } from '@zhyy/shared';
import type { Database } from '../../db/schema.js';
import { contains, offsetOf } from '../../platform/listing.js';
import { INTRANET, UNKNOWN, locateIp } from './geoip.js';
import './tables.js';

type Db = Kysely<Database>;

/** Sessions written by another app server a little late are still picked up. */
const WATERMARK_SLACK_MS = 10 * 60_000;
const BATCH = 1000;

const isPlace = (location: string) => location !== INTRANET && location !== UNKNOWN;

/** Resolves every sign-in not resolved yet; returns how many were added. */
export async function syncSignInLocations(db: Db): Promise<number> {
  const mark = await db.selectFrom('sign_in_locations').select((eb) => eb.fn.max('signed_in_at').as('t')).executeTakeFirst();
  const since = mark?.t ? new Date(Date.parse(String(mark.t)) - WATERMARK_SLACK_MS).toISOString() : '';
  const known = new Map<string, Set<string>>();
  const placesOf = async (userId: string) => {
    let set = known.get(userId);
    if (!set) {
      const rows = await db.selectFrom('sign_in_locations').select('location').distinct().where('user_id', '=', userId).execute();
      set = new Set(rows.map((r) => r.location));
      known.set(userId, set);
    }
    return set;
  };
  let added = 0;
  for (;;) {
    const pending = await db
      .selectFrom('sessions as s')
      .leftJoin('sign_in_locations as l', 'l.session_id', 's.id')
      .select(['s.id', 's.user_id', 's.ip', 's.created_at'])
      .where('l.session_id', 'is', null)
      .where('s.created_at', '>=', since)
      .orderBy('s.created_at')
      .orderBy('s.id')
      .limit(BATCH)
      .execute();
    if (!pending.length) return added;
    for (const s of pending) {
      const loc = locateIp(s.ip);
      const places = await placesOf(s.user_id);
      const newCity = isPlace(loc.location) && places.size > 0 && !places.has(loc.location);
      places.add(loc.location);
      const res = await db
        .insertInto('sign_in_locations')
        .values({
          session_id: s.id,
          user_id: s.user_id,
          ip: s.ip,
          country: loc.country,
          province: loc.province,
          city: loc.city,
          isp: loc.isp,
          location: loc.location,
          new_city: newCity ? 1 : 0,
          signed_in_at: s.created_at,
        })
        .onConflict((oc) => oc.column('session_id').doNothing())
        .executeTakeFirst();
      added += Number(res.numInsertedOrUpdatedRows ?? 0);
    }
    if (pending.length < BATCH) return added;
  }
}

type GeoFilter = Partial<Pick<GeoListQuery, 'from' | 'to' | 'user' | 'province' | 'newCityOnly'>>;

function filtered(db: Db, f: GeoFilter) {
  let q = db.selectFrom('sign_in_locations as l').innerJoin('users as u', 'u.id', 'l.user_id').leftJoin('departments as d', 'd.id', 'u.dept_id');
  if (f.from) q = q.where('l.signed_in_at', '>=', f.from);
  if (f.to) q = q.where('l.signed_in_at', '<', f.to);
  if (f.user) {
    const k = f.user;
    q = q.where(({ or, ref }) => or([contains(ref('u.name'), k), contains(ref('u.login_name'), k)]));
  }
  if (f.province) q = q.where(({ or, eb }) => or([eb('l.province', '=', f.province!), eb('l.location', '=', f.province!)]));
  if (f.newCityOnly) q = q.where('l.new_city', '=', 1);
  return q;
}

export async function listSignIns(db: Db, q: GeoListQuery): Promise<PageResult<SignInLocationRow>> {
  await syncSignInLocations(db);
  const total = Number((await filtered(db, q).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
  const rows = await filtered(db, q)
    .select(['l.session_id', 'l.user_id', 'u.login_name', 'u.name', 'd.name as dept_name', 'l.ip', 'l.country', 'l.province', 'l.city', 'l.isp', 'l.location', 'l.signed_in_at', 'l.new_city'])
    .orderBy('l.signed_in_at', q.sort?.field === 'signedInAt' && q.sort.order === 'ascend' ? 'asc' : 'desc')
    .orderBy('l.session_id')
    .limit(q.pageSize)
    .offset(offsetOf(q))
    .execute();
  return {
    total,
    items: rows.map((r) => ({
      id: r.session_id,
      userId: r.user_id,
      loginName: r.login_name,
      name: r.name,
      deptName: r.dept_name ?? '',
      ip: r.ip,
      country: r.country,
      province: r.province,
      city: r.city,
      isp: r.isp,
      location: r.location,
      signedInAt: r.signed_in_at,
      newCity: r.new_city === 1,
    })),
  };
}

/** Sign-ins per province (or per city) over a period: count, distinct users, sign-ins from new places. */
export async function signInStatistic(db: Db, f: { from?: string; to?: string; level: 'province' | 'city' }): Promise<GeoStatRow[]> {
  await syncSignInLocations(db);
  const rows = await filtered(db, { from: f.from, to: f.to, newCityOnly: false })
    .select(['l.province', 'l.location', 'l.user_id', (eb) => eb.fn.countAll<number>().as('n'), (eb) => eb.fn.sum<number>('l.new_city').as('fresh')])
    .groupBy(['l.province', 'l.location', 'l.user_id'])
    .execute();
  const out = new Map<string, { signIns: number; users: Set<string>; newCity: number }>();
  for (const r of rows) {
    const region = f.level === 'province' ? r.province || r.location : r.location;
    const agg = out.get(region) ?? { signIns: 0, users: new Set<string>(), newCity: 0 };
    agg.signIns += Number(r.n);
    agg.users.add(r.user_id);
    agg.newCity += Number(r.fresh ?? 0);
    out.set(region, agg);
  }
  return [...out.entries()]
    .map(([region, a]) => ({ region, signIns: a.signIns, users: a.users.size, newCity: a.newCity }))
    .sort((a, b) => b.signIns - a.signIns || a.region.localeCompare(b.region, 'zh-CN'));
}
