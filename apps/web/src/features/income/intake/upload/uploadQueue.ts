/**
 * The files of one upload on 进项发票编辑: each waits, is recognised (one call a file, one at a time), and
 * ends recognised or failed with its Chinese reason; a recognised one may then be saved. A file the server
 * would refuse for its name or size fails here at once, without a call. The state is a reducer so the page
 * and its tests drive the same steps.
 */
import { UPLOAD_MAX_BYTES, type PoolArrival, type UploadRecognition } from '@zhyy/shared';

export type FileState = 'waiting' | 'recognising' | 'recognised' | 'failed';

export const FILE_STATE_LABEL: Record<FileState, string> = { waiting: '等待识别', recognising: '识别中', recognised: '已识别', failed: '识别失败' };

/** What the upload takes (upload.ts: the format read from the content must match the extension). */
export const UPLOAD_ACCEPT = '.pdf,.ofd,.xml,.jpg,.jpeg,.png';
const EXTENSIONS = new Set(['pdf', 'ofd', 'xml', 'jpg', 'jpeg', 'png']);

export interface QueuedFile {
  uid: string;
  name: string;
  size: number;
  file: Blob & { name: string };
  state: FileState;
  /** Why it failed, in Chinese. */
  reason?: string;
  result?: UploadRecognition;
  /** The answer of its save, once saved. */
  saved?: PoolArrival;
}

export type QueueAction =
  | { type: 'add'; files: Array<{ uid: string; file: Blob & { name: string } }> }
  | { type: 'start'; uid: string }
  | { type: 'recognised'; uid: string; result: UploadRecognition }
  | { type: 'failed'; uid: string; reason: string }
  | { type: 'saved'; uid: string; arrival: PoolArrival }
  | { type: 'remove'; uid: string }
  | { type: 'clear' };

const extensionOf = (name: string) => (/\.([^.]+)$/.exec(name)?.[1] ?? '').toLowerCase();

/** Why a file cannot be uploaded at all, in the server's words; null when it may be sent. */
export function refusalOf(file: { name: string; size: number }): string | null {
  if (!EXTENSIONS.has(extensionOf(file.name))) return '只能上传PDF、OFD、XML、JPG或PNG文件';
  if (file.name.length > 120) return '文件名不能超过120个字符';
  if (file.size === 0) return `文件「${file.name}」内容为空`;
  if (file.size > UPLOAD_MAX_BYTES) return `文件不能超过${UPLOAD_MAX_BYTES / 1024 / 1024}MB`;
  return null;
}

export function queueReducer(state: QueuedFile[], a: QueueAction): QueuedFile[] {
  const set = (uid: string, change: Partial<QueuedFile>) => state.map((f) => (f.uid === uid ? { ...f, ...change } : f));
  switch (a.type) {
    case 'add':
      return [
        ...state,
        ...a.files.filter((x) => !state.some((f) => f.uid === x.uid)).map(({ uid, file }): QueuedFile => {
          const reason = refusalOf({ name: file.name, size: file.size });
          return { uid, name: file.name, size: file.size, file, state: reason ? 'failed' : 'waiting', reason: reason ?? undefined };
        }),
      ];
    case 'start':
      return set(a.uid, { state: 'recognising', reason: undefined });
    case 'recognised':
      return set(a.uid, { state: 'recognised', result: a.result });
    case 'failed':
      return set(a.uid, { state: 'failed', reason: a.reason });
    case 'saved':
      return set(a.uid, { saved: a.arrival });
    case 'remove':
      return state.filter((f) => f.uid !== a.uid);
    case 'clear':
      return [];
  }
}

/** The next file to recognise: none while one is being recognised (one call at a time). */
export function nextToRecognise(state: QueuedFile[]): QueuedFile | null {
  if (state.some((f) => f.state === 'recognising')) return null;
  return state.find((f) => f.state === 'waiting') ?? null;
}

export interface QueueProgress {
  total: number;
  /** Recognised or failed. */
  done: number;
  recognised: number;
  failed: number;
  percent: number;
  running: boolean;
  text: string;
}

export function queueProgress(state: QueuedFile[]): QueueProgress {
  const recognised = state.filter((f) => f.state === 'recognised').length;
  const failed = state.filter((f) => f.state === 'failed').length;
  const total = state.length;
  const done = recognised + failed;
  const running = done < total;
  const percent = total ? Math.floor((done * 100) / total) : 0;
  const text = running ? `正在识别：已完成 ${done}/${total} 个文件` : `识别完成：共 ${total} 个文件，已识别 ${recognised} 个${failed ? `，失败 ${failed} 个` : ''}`;
  return { total, done, recognised, failed, percent, running, text };
}

/** The Chinese reason of a failed call or read. */
export const reasonOf = (e: unknown): string => (e instanceof Error && e.message ? e.message : '识别失败，请稍后重试');
