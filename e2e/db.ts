/**
 * Direct access to the e2e server's SQLite database, for setting up what no screen of the current
 * build can create yet (e.g. a user holding an initial password). WAL mode allows a second writer.
 */
import path from 'node:path';
import Database from 'better-sqlite3';
import { hash } from '@node-rs/argon2';
import { inject } from 'vitest';

export async function setInitialPassword(login: string, password: string): Promise<void> {
  const db = new Database(path.join(inject('dataDir'), 'platform.db'));
  try {
    db.pragma('busy_timeout = 5000');
    const h = await hash(password, { algorithm: 2, memoryCost: 19456, timeCost: 2, parallelism: 1 });
    db.prepare('update users set password_hash = ?, password_is_initial = 1 where login_name = ?').run(h, login);
  } finally {
    db.close();
  }
}
