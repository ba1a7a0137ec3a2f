#!/usr/bin/env node
/**
 * npm run backup [-- --out DIR]     online backup of $DATA_DIR (the server may keep running)
 * npm run restore -- DIR            restore a backup into $DATA_DIR (the server must be stopped)
 * With DATABASE_URL set (PostgreSQL) both print the pg_dump / pg_restore steps of docs/backup.md.
 */
import path from 'node:path';
import { loadConfig } from '../config.js';
import { BackupError, createBackup, restoreBackup, stamp } from './backup.js';

const POSTGRES_STEPS = `PostgreSQL (DATABASE_URL) 由数据库自身备份，本命令不处理。步骤见 docs/backup.md：
  备份：pg_dump --format=custom --file=zhyy-$(date +%Y%m%d-%H%M%S).dump "$DATABASE_URL"
  恢复（先停止服务器）：pg_restore --clean --if-exists --no-owner --dbname="$DATABASE_URL" FILE.dump
  发票文件在数据库内（invoice_blobs），随 pg_dump 一并备份；数据目录 DATA_DIR 的其他文件另行复制。`;

function usage(): never {
  console.error('用法：backup [--out DIR] | restore DIR');
  process.exit(2);
}

async function main(): Promise<void> {
  const [command, ...args] = process.argv.slice(2);
  const config = loadConfig(process.env, []);
  if (command !== 'backup' && command !== 'restore') usage();
  if (config.databaseUrl) {
    console.error(POSTGRES_STEPS);
    process.exit(1);
  }
  if (command === 'backup') {
    const at = args.indexOf('--out');
    if (at >= 0 && !args[at + 1]) usage();
    const out = path.resolve(at >= 0 ? args[at + 1]! : path.join('backups', `zhyy-${stamp()}`));
    const m = await createBackup(config.dataDir, out);
    console.log(`备份完成：${out}`);
    console.log(`  数据库 ${m.database.size} 字节（sha256 ${m.database.sha256.slice(0, 12)}…），迁移 ${m.migrations.length} 个，发票文件 ${m.invoiceFiles} 个，数据目录文件 ${m.fileCount} 个`);
    return;
  }
  const from = args.find((a) => !a.startsWith('--'));
  if (!from) usage();
  const { manifest, aside } = restoreBackup(config.dataDir, path.resolve(from));
  console.log(`已恢复 ${manifest.createdAt} 的备份到 ${config.dataDir}（迁移 ${manifest.migrations.length} 个，数据目录文件 ${manifest.fileCount} 个）`);
  if (aside) console.log(`  原有数据已移到 ${aside}，确认无误后可删除`);
}

main().catch((err: unknown) => {
  console.error(err instanceof BackupError ? err.message : err);
  process.exit(1);
});
