/** The PostgreSQL driver, loaded only when a PostgreSQL URL is configured (issue 11: cold start on SQLite). */
import { createRequire } from 'node:module';

type Pg = typeof import('pg');
let pgModule: Pg | null = null;

export function loadPg(): Pg {
  if (pgModule) return pgModule;
  const loaded = createRequire(import.meta.url)('pg') as Pg;
  // COUNT(*) and BIGINT (money in 分) come back as numbers; values stay far below 2^53.
  loaded.types.setTypeParser(20, (v) => Number(v));
  return (pgModule = loaded);
}
