/** Time is stored as ISO-8601 UTC text (docs/database.md). */
export const nowIso = () => new Date().toISOString();
export const isoAfter = (ms: number, from: Date = new Date()) => new Date(from.getTime() + ms).toISOString();
export const isoBefore = (ms: number, from: Date = new Date()) => new Date(from.getTime() - ms).toISOString();

/** The last instant stored times can hold: ISO text past year 9999 ('+010000-…') would sort below every stored time. */
const LAST_INSTANT = '9999-12-31T23:59:59.999Z';

/**
 * The UTC instant (ISO text) at which an Asia/Shanghai calendar day, plus `days`, begins: filters
 * compare `created_at >= shanghaiDayStartIso(from)` and `created_at < shanghaiDayStartIso(to, 1)`.
 * A day whose bound lies past year 9999 (to = 9999-12-31) gives the last instant instead.
 */
export function shanghaiDayStartIso(day: string, days = 0): string {
  const t = Date.parse(`${day}T00:00:00+08:00`) + days * 86_400_000;
  const iso = new Date(t).toISOString();
  return iso.startsWith('+') ? LAST_INSTANT : iso;
}
