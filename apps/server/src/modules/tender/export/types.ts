/**
 * What an export is made of: ordered sections (one per contract, person or certificate), each with its
 * files in order. A file is opened only when its turn comes, so a source is read once at a time.
 */
import type { Readable } from 'node:stream';

export type ExportMime = 'application/pdf' | 'image/jpeg' | 'image/png';

export interface ExportFile {
  /** Shown in errors and used as the file's name in a zip. */
  name: string;
  mime: ExportMime;
  open(): Promise<Readable>;
}

export interface ExportSection {
  title: string;
  files: ExportFile[];
}

/** Progress of one export: the share done (0–1) and what is being done, in Chinese. */
export type ExportProgress = (ratio: number, step: string) => void | Promise<void>;

/** An export that cannot be made as asked, with a message for the clerk (Chinese, naming the file). */
export class ExportInputError extends Error {
  /** `message` is for the clerk, in Chinese; `cause` (the storage's or the parser's own error) is for the log only. */
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ExportInputError';
  }
}

/** Reads a source whole (one at a time; a scan of a contract page is a few MB at most). */
export async function readAll(file: ExportFile): Promise<Buffer> {
  let stream: Readable;
  try {
    stream = await file.open();
  } catch (err) {
    throw new ExportInputError(`文件「${file.name}」无法读取，可能已被删除或存储暂不可用，请重新上传后再导出`, { cause: err });
  }
  const chunks: Buffer[] = [];
  try {
    for await (const chunk of stream) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array));
  } catch (err) {
    throw new ExportInputError(`文件「${file.name}」读取失败，请稍后重试或重新上传该文件`, { cause: err });
  }
  return Buffer.concat(chunks);
}
