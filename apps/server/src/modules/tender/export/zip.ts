/**
 * The sections of an export as a zip of the original files, one folder per section ("01 合同名称/…"),
 * streamed: each file is opened when its turn comes and piped through archiver into `out`, so neither a
 * source nor the zip is held whole. PDFs and images are already compressed and are stored as they are;
 * names are UTF-8 (archiver sets the language encoding flag), with characters Windows refuses replaced
 * and duplicates in one folder numbered.
 */
import { once } from 'node:events';
import type { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import archiver from 'archiver';
import { ExportInputError, type ExportProgress, type ExportSection } from './types.js';

export interface ZipResult {
  fileCount: number;
  /** The path of each file in the zip, in order. */
  entries: string[];
}

const clean = (s: string, max: number) => {
  const c = s.replace(/[\\/:*?"<>|\u0000-\u001f]/g, '_').replace(/^[.\s]+|[.\s]+$/g, '').trim();
  return ([...c].slice(0, max).join('') || '_');
};

/** The path of each file: a folder per section, numbered in order; a name twice in one folder gets (2), (3)… */
export function zipPaths(sections: ExportSection[]): string[][] {
  const width = Math.max(2, String(sections.length).length);
  return sections.map((s, i) => {
    const folder = `${String(i + 1).padStart(width, '0')} ${clean(s.title, 60)}`;
    const seen = new Map<string, number>();
    return s.files.map((f) => {
      let name = clean(f.name, 100);
      const key = name.toLowerCase();
      const n = (seen.get(key) ?? 0) + 1;
      seen.set(key, n);
      if (n > 1) {
        const dot = name.lastIndexOf('.');
        name = dot > 0 ? `${name.slice(0, dot)} (${n})${name.slice(dot)}` : `${name} (${n})`;
      }
      return `${folder}/${name}`;
    });
  });
}

export async function assembleZip(sections: ExportSection[], out: Writable, progress?: ExportProgress): Promise<ZipResult> {
  if (!sections.length) throw new ExportInputError('没有可导出的内容');
  const paths = zipPaths(sections);
  const total = sections.reduce((a, s) => a + s.files.length, 0);
  if (!total) throw new ExportInputError('没有可导出的文件');
  const zip = archiver('zip', { zlib: { level: 6 } });
  let failed: Error | null = null;
  zip.on('warning', (err: Error) => (failed ??= err));
  const piped = pipeline(zip, out);
  piped.catch((err: Error) => (failed ??= err));
  const entries: string[] = [];
  const now = new Date();
  try {
    for (const [si, s] of sections.entries()) {
      for (const [fi, f] of s.files.entries()) {
        if (failed) throw failed;
        await progress?.(entries.length / total, `打包「${s.title}」：${f.name}`);
        let source;
        try {
          source = await f.open();
        } catch (err) {
          throw new ExportInputError(`文件「${f.name}」无法读取，可能已被删除或存储暂不可用，请重新上传后再导出`, { cause: err });
        }
        const path = paths[si]![fi]!;
        const unreadable = new Promise<never>((_, reject) =>
          source.once('error', (err: Error) => reject((failed ??= new ExportInputError(`文件「${f.name}」读取失败，请稍后重试或重新上传该文件`, { cause: err })))),
        );
        unreadable.catch(() => undefined);
        // One entry at a time: archiver reads the next source only after this one is written (once()
        // rejects when the archive fails).
        const written = once(zip, 'entry');
        zip.append(source, { name: path, date: now, store: true });
        await Promise.race([written, unreadable]);
        if (failed) throw failed;
        entries.push(path);
      }
    }
    await progress?.(0.99, '写入压缩包目录');
    await zip.finalize();
    await piped;
  } catch (err) {
    zip.abort();
    await piped.catch(() => undefined);
    const first = failed as Error | null;
    throw first instanceof ExportInputError ? first : err;
  }
  if (failed) throw failed;
  await progress?.(1, '完成');
  return { fileCount: entries.length, entries };
}
