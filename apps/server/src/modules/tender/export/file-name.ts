import { shanghaiDay } from '../../../platform/listing.js';
import type { TenderExportFormat } from './tables.js';

/**
 * A file name from the title: characters Windows refuses replaced, the date and the extension added. The date
 * is the day in Asia/Shanghai (made at 02:23 on 11-28 Beijing time: _20261128), as the users read it.
 */
export function exportFileName(title: string, format: TenderExportFormat, at = new Date()): string {
  const base = [...title.replace(/[\\/:*?"<>|\u0000-\u001f]/g, '_').trim()].slice(0, 80).join('') || '投标文件';
  const day = shanghaiDay(at).replaceAll('-', '');
  return `${base}_${day}.${format}`;
}
