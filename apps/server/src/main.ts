/** Reads the configuration, opens the database, migrates, loads the demo company on first start, listens. */
import fs from 'node:fs';
import path from 'node:path';
import { pidFileName } from './backup/backup.js';
import { buildApp } from './app.js';
import { loadConfig } from './config.js';
import { migrate, openDatabase } from './db/index.js';
import type { FirstStart } from './seed/index.js';
import { createStorage } from './platform/storage/index.js';

async function main(): Promise<void> {
  const config = loadConfig();
  // Tells `npm run restore` that a server is using this data folder (removed on a clean stop).
  const pidFile = path.join(config.dataDir, pidFileName(process.pid));
  fs.mkdirSync(config.dataDir, { recursive: true });
  fs.writeFileSync(pidFile, `${process.pid}\n`);
  const db = openDatabase({ databaseUrl: config.databaseUrl, sqlitePath: path.join(config.dataDir, 'platform.db') });
  const applied = await migrate(db);
  // The seed (the demo company's data and its drawing code) loads only while the database has no users
  // (issue 30: not with every start); prepareFirstStart checks again under its lock.
  const empty = !(await db.kysely.selectFrom('users').select('id').limit(1).executeTakeFirst());
  const first: FirstStart = empty ? await (await import('./seed/index.js')).prepareFirstStart(db, { demo: config.demo, storage: createStorage(config) }) : { kind: 'none' };
  const app = await buildApp(config, db);
  if (applied.length) app.log.info({ migrations: applied }, 'migrations applied');
  if (first.kind === 'demo') app.log.info({ users: first.users }, 'demo company loaded (password demo123)');
  if (first.kind === 'admin') {
    // Printed once, on standard output only; the administrator must change it at first sign-in.
    process.stdout.write(
      `\n  初始管理员账号：admin\n  初始密码：${first.password}\n  （仅显示这一次，首次登录后须修改）\n\n`,
    );
  }
  const close = async (signal: string) => {
    app.log.info({ signal }, 'shutting down');
    await app.close();
    await db.close();
    fs.rmSync(pidFile, { force: true });
    process.exit(0);
  };
  process.once('SIGINT', () => void close('SIGINT'));
  process.once('SIGTERM', () => void close('SIGTERM'));
  await app.listen({ port: config.port, host: config.host });
  const where = config.databaseUrl ? 'PostgreSQL' : path.join(config.dataDir, 'platform.db');
  app.log.info(`综合运营支撑平台 serving on http://localhost:${config.port} (database: ${where})`);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
