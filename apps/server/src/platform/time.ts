/** Time is stored as ISO-8601 UTC text (docs/database.md). */
export const nowIso = () => new Date().toISOString();
export const isoAfter = (ms: number, from: Date = new Date()) => new Date(from.getTime() + ms).toISOString();
export const isoBefore = (ms: number, from: Date = new Date()) => new Date(from.getTime() - ms).toISOString();
