/** The tender export as a zip (modules/tender/export/zip.ts): folders per section, entries and their content, names cleaned and numbered. */
import { PassThrough, Readable } from 'node:stream';
import JSZip from 'jszip';
import { describe, expect, it } from 'vitest';
import { assembleZip, zipPaths } from '../src/modules/tender/export/zip.js';
import { fileOf, makeJpeg, makePdf } from './tender-export-fixtures.js';

async function collect(run: (out: PassThrough) => Promise<unknown>) {
  const out = new PassThrough();
  const chunks: Buffer[] = [];
  out.on('data', (c: Buffer) => chunks.push(c));
  await run(out);
  return Buffer.concat(chunks);
}

describe('tender export zip', () => {
  it('writes each section as a folder of its original files', async () => {
    const pdf = await makePdf('one', 2);
    const jpg = makeJpeg(64, 64);
    const steps: number[] = [];
    const sections = [
      { title: '合同一：道路/桥梁工程', files: [fileOf('首页.pdf', 'application/pdf', pdf), fileOf('首页.pdf', 'application/pdf', pdf)] },
      { title: '张三 一级建造师', files: [fileOf('证书:正本.jpg', 'image/jpeg', jpg)] },
    ];
    let result: Awaited<ReturnType<typeof assembleZip>> | undefined;
    const bytes = await collect(async (out) => (result = await assembleZip(sections, out, (r) => void steps.push(r))));
    expect(result!.fileCount).toBe(3);
    const zip = await JSZip.loadAsync(bytes);
    const names = Object.values(zip.files).filter((f) => !f.dir).map((f) => f.name);
    expect(names).toEqual(['01 合同一：道路_桥梁工程/首页.pdf', '01 合同一：道路_桥梁工程/首页 (2).pdf', '02 张三 一级建造师/证书_正本.jpg']);
    expect(result!.entries).toEqual(names);
    expect(Buffer.from(await zip.file(names[0]!)!.async('uint8array')).equals(pdf)).toBe(true);
    expect(Buffer.from(await zip.file(names[2]!)!.async('uint8array')).equals(jpg)).toBe(true);
    expect(steps.at(-1)).toBe(1);
  });

  it('numbers folders with enough digits to keep their order', () => {
    const sections = Array.from({ length: 120 }, (_, i) => ({ title: `s${i}`, files: [fileOf('a.pdf', 'application/pdf', Buffer.alloc(1))] }));
    expect(zipPaths(sections)[0]![0]).toBe('001 s0/a.pdf');
    expect(zipPaths(sections)[119]![0]).toBe('120 s119/a.pdf');
  });

  it('fails naming a source that cannot be read', async () => {
    const broken = {
      name: '丢失的扫描件.pdf',
      mime: 'application/pdf' as const,
      open: async () =>
        new Readable({
          read() {
            this.destroy(new Error('gone'));
          },
        }),
    };
    await expect(collect((out) => assembleZip([{ title: '合同', files: [fileOf('a.pdf', 'application/pdf', Buffer.from('x')), broken] }], out))).rejects.toThrow(
      // In Chinese only: the stream's own error ('gone') is for the log.
      /^文件「丢失的扫描件\.pdf」读取失败，[^A-Za-z]+$/,
    );
    const missing = { ...broken, open: () => Promise.reject(new Error('不存在')) };
    await expect(collect((out) => assembleZip([{ title: '合同', files: [missing] }], out))).rejects.toThrow('文件「丢失的扫描件.pdf」无法读取');
  });
});
