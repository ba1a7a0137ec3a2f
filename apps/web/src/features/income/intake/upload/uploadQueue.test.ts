/** Issue 13, 进项发票编辑: each file's state, the one-at-a-time order and the overall progress of an upload. */
import { describe, expect, it } from 'vitest';
import type { UploadRecognition } from '@zhyy/shared';
import { FILE_STATE_LABEL, nextToRecognise, queueProgress, queueReducer, refusalOf, type QueuedFile } from './uploadQueue';

const file = (name: string, size = 100) => ({ name, size }) as Blob & { name: string };
const result = (fileName: string): UploadRecognition => ({ fileName, format: 'xml', size: 100, sha256: 'x', fields: [], warnings: [], draft: {}, inPool: null });

describe('upload queue (issue 13)', () => {
  it('refuses, without a call, what the server would refuse for its name or size, in its words', () => {
    expect(refusalOf({ name: 'a.pdf', size: 10 })).toBeNull();
    expect(refusalOf({ name: 'A.JPEG', size: 10 })).toBeNull();
    expect(refusalOf({ name: 'a.docx', size: 10 })).toBe('只能上传PDF、OFD、XML、JPG或PNG文件');
    expect(refusalOf({ name: 'noext', size: 10 })).toBe('只能上传PDF、OFD、XML、JPG或PNG文件');
    expect(refusalOf({ name: 'a.png', size: 0 })).toBe('文件「a.png」内容为空');
    expect(refusalOf({ name: 'a.png', size: 10 * 1024 * 1024 })).toBeNull();
    expect(refusalOf({ name: 'a.png', size: 10 * 1024 * 1024 + 1 })).toBe('文件不能超过10MB');
    expect(refusalOf({ name: `${'a'.repeat(117)}.png`, size: 1 })).toBe('文件名不能超过120个字符');
  });

  it('walks each file through 等待识别 → 识别中 → 已识别 / 识别失败, one at a time, with the progress', () => {
    let s: QueuedFile[] = [];
    s = queueReducer(s, { type: 'add', files: [{ uid: '1', file: file('a.xml') }, { uid: '2', file: file('b.pdf') }, { uid: '3', file: file('c.doc') }] });
    expect(s.map((f) => f.state)).toEqual(['waiting', 'waiting', 'failed']);
    expect(s[2]!.reason).toBe('只能上传PDF、OFD、XML、JPG或PNG文件');
    // The same file (uid) added again is not queued twice.
    s = queueReducer(s, { type: 'add', files: [{ uid: '1', file: file('a.xml') }] });
    expect(s).toHaveLength(3);
    expect(queueProgress(s)).toMatchObject({ total: 3, done: 1, failed: 1, percent: 33, running: true, text: '正在识别：已完成 1/3 个文件' });

    expect(nextToRecognise(s)?.uid).toBe('1');
    s = queueReducer(s, { type: 'start', uid: '1' });
    expect(FILE_STATE_LABEL[s[0]!.state]).toBe('识别中');
    // While one is recognised the next waits.
    expect(nextToRecognise(s)).toBeNull();
    s = queueReducer(s, { type: 'recognised', uid: '1', result: result('a.xml') });
    expect(FILE_STATE_LABEL[s[0]!.state]).toBe('已识别');
    expect(s[0]!.result?.fileName).toBe('a.xml');
    expect(nextToRecognise(s)?.uid).toBe('2');
    s = queueReducer(s, { type: 'start', uid: '2' });
    s = queueReducer(s, { type: 'failed', uid: '2', reason: '文件内容与扩展名不符，只能上传PDF、OFD、XML、JPG或PNG文件' });
    expect(FILE_STATE_LABEL[s[1]!.state]).toBe('识别失败');
    expect(s[1]!.reason).toBe('文件内容与扩展名不符，只能上传PDF、OFD、XML、JPG或PNG文件');
    expect(nextToRecognise(s)).toBeNull();
    expect(queueProgress(s)).toMatchObject({ total: 3, done: 3, recognised: 1, failed: 2, percent: 100, running: false, text: '识别完成：共 3 个文件，已识别 1 个，失败 2 个' });

    s = queueReducer(s, { type: 'saved', uid: '1', arrival: { id: 'i', outcome: 'created', message: '已加入票池', warnings: [] } });
    expect(s[0]!.saved?.message).toBe('已加入票池');
    s = queueReducer(s, { type: 'remove', uid: '3' });
    expect(queueProgress(s).text).toBe('识别完成：共 2 个文件，已识别 1 个，失败 1 个');
    expect(queueProgress(queueReducer(s, { type: 'clear' }))).toMatchObject({ total: 0, percent: 0, running: false });
  });

  it('all recognised: no failure named', () => {
    let s = queueReducer([], { type: 'add', files: [{ uid: '1', file: file('a.png') }] });
    s = queueReducer(queueReducer(s, { type: 'start', uid: '1' }), { type: 'recognised', uid: '1', result: result('a.png') });
    expect(queueProgress(s).text).toBe('识别完成：共 1 个文件，已识别 1 个');
  });
});
