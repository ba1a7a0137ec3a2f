/**
 * AttachmentPanel: the slots with 必需 and 已上传/缺失, several files in one slot, 查看 through a signed link,
 * 删除 only after a confirmation, 上传 checked before sending (PDF/JPG/PNG, 50 MB) and sent with progress;
 * read-only when not editable. Also useAttachments' query and the checks.
 */
import '../../../test/dom';
import { configure, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { TenderAttachment } from '@zhyy/shared';

const files = vi.hoisted(() => ({ list: vi.fn(), upload: vi.fn(), remove: vi.fn(), fileLink: vi.fn() }));
vi.mock('../../../api/tender-files', () => ({ tenderFilesApi: files }));
const confirm = vi.hoisted(() => vi.fn());
const error = vi.hoisted(() => vi.fn());
vi.mock('../../../ui/feedback', async (orig) => ({ ...(await orig<object>()), feedback: () => ({ modal: { confirm }, message: { success: vi.fn(), error } }) }));

const { AttachmentPanel, attachmentsComplete } = await import('./AttachmentPanel');
const { uploadProblem, fileSize } = await import('./attachments');

configure({ asyncUtilTimeout: 15_000 });

const att = (id: string, kind: number, fileName: string, size = 2048): TenderAttachment => ({ id, ownerKind: 'contract', ownerId: 'c1', kind, fileName, mime: 'application/pdf', size, sha256: 'x', uploadedBy: '张三', uploadedAt: '2026-11-01T00:00:00.000Z' });
const SLOTS = [
  { kind: 2211, label: '单项合同封面', required: true },
  { kind: 2214, label: '单项合同签章页', required: true },
  { kind: 2900, label: '审定单' },
];

function show(editable: boolean, onChange = vi.fn()) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <AttachmentPanel ownerKind="contract" ownerId="c1" slots={SLOTS} editable={editable} onChange={onChange} />
    </QueryClientProvider>,
  );
  return onChange;
}
const rowOf = (label: string) => screen.getByText(label).closest('tr')!;

beforeEach(() => {
  for (const f of Object.values(files)) f.mockReset();
  confirm.mockReset();
  error.mockReset();
  files.list.mockResolvedValue([att('a1', 2211, '封面<b>.pdf'), att('a2', 2211, '封面第2页.pdf', 3 * 1024 * 1024), att('a3', 2900, '审定单.pdf')]);
});

describe('AttachmentPanel', { timeout: 60_000 }, () => {
  it('shows each slot with its completeness, several files per slot, names as text', async () => {
    const onChange = show(false);
    await screen.findByText('封面第2页.pdf');
    expect(files.list).toHaveBeenCalledWith('contract', ['c1']);
    expect(within(rowOf('单项合同封面')).getByText('必需')).toBeTruthy();
    expect(within(rowOf('单项合同封面')).getByText('已上传')).toBeTruthy();
    expect(within(rowOf('单项合同签章页')).getByText('缺失')).toBeTruthy();
    expect(within(rowOf('审定单')).queryByText('必需')).toBeNull();
    expect(within(rowOf('审定单')).getByText('已上传')).toBeTruthy();
    // Written as text: the markup in a name is not rendered.
    expect(screen.getByText('封面<b>.pdf')).toBeTruthy();
    expect(screen.getByText('3.0 MB')).toBeTruthy();
    // Read-only: no upload, no delete.
    expect(screen.queryByText('上传')).toBeNull();
    expect(screen.queryByText('删除')).toBeNull();
    await waitFor(() => expect(onChange).toHaveBeenCalledWith(expect.arrayContaining([expect.objectContaining({ id: 'a1' })])));
  });

  it('查看 asks for a signed link and opens the viewer', async () => {
    const open = vi.spyOn(window, 'open').mockReturnValue(null);
    files.fileLink.mockResolvedValue({ url: '/signed/tender-file/a3?e=1&s=x', name: '审定单.pdf', type: 'application/pdf', expiresAt: '' });
    show(false);
    fireEvent.click(await screen.findByRole('button', { name: '查看审定单.pdf' }));
    await waitFor(() => expect(open).toHaveBeenCalled());
    expect(files.fileLink).toHaveBeenCalledWith('a3');
    expect(String(open.mock.calls[0]![0])).toMatch(/^\/file\/view\//);
    open.mockRestore();
  });

  it('删除 asks first and deletes only when confirmed, then reloads', async () => {
    files.remove.mockResolvedValue({ code: 20000 });
    show(true);
    fireEvent.click(await screen.findByRole('button', { name: '删除审定单.pdf' }));
    expect(confirm).toHaveBeenCalledTimes(1);
    expect(files.remove).not.toHaveBeenCalled();
    expect(String(confirm.mock.calls[0]![0].content)).toContain('审定单.pdf');
    await confirm.mock.calls[0]![0].onOk();
    expect(files.remove).toHaveBeenCalledWith('a3');
    await waitFor(() => expect(files.list).toHaveBeenCalledTimes(2));
  });

  it('上传 refuses other formats before sending, sends a PDF with progress and reloads', async () => {
    let progress: (p: number) => void = () => undefined;
    let finish: (a: TenderAttachment) => void = () => undefined;
    files.upload.mockImplementation((_t, _f, o: { onProgress(p: number): void }) => {
      progress = o.onProgress;
      return new Promise((resolve) => (finish = resolve));
    });
    show(true);
    await screen.findByText('封面第2页.pdf');
    const input = rowOf('单项合同签章页').querySelector('input[type=file]') as HTMLInputElement;
    fireEvent.change(input, { target: { files: [new File(['%PDF-1.4'], '签章页.pdf', { type: 'application/pdf' })] } });
    await waitFor(() => expect(files.upload).toHaveBeenCalledTimes(1));
    expect(files.upload.mock.calls[0]![0]).toEqual({ ownerKind: 'contract', ownerId: 'c1', kind: 2214 });
    progress(40);
    await waitFor(() => expect(screen.getByTestId('progress-2214').textContent).toContain('40'));
    finish(att('a4', 2214, '签章页.pdf'));
    await waitFor(() => expect(files.list).toHaveBeenCalledTimes(2));
    await waitFor(() => expect(screen.queryByTestId('progress-2214')).toBeNull());

    const again = rowOf('单项合同签章页').querySelector('input[type=file]') as HTMLInputElement;
    fireEvent.change(again, { target: { files: [new File(['x'], '说明.docx', { type: 'application/msword' })] } });
    await waitFor(() => expect(error).toHaveBeenCalledWith('说明.docx：只能上传PDF、JPG或PNG文件'));
    expect(files.upload).toHaveBeenCalledTimes(1);
  });
});

describe('checks', () => {
  it('uploadProblem: type, empty, 50 MB', () => {
    expect(uploadProblem({ name: 'a.PDF', size: 10 })).toBeNull();
    expect(uploadProblem({ name: 'scan.jpeg', size: 10 })).toBeNull();
    expect(uploadProblem({ name: 'scan', size: 10, type: 'image/png' })).toBeNull();
    expect(uploadProblem({ name: 'a.gif', size: 10, type: 'image/gif' })).toBe('a.gif：只能上传PDF、JPG或PNG文件');
    expect(uploadProblem({ name: 'a.pdf', size: 0 })).toBe('a.pdf：文件内容为空');
    expect(uploadProblem({ name: 'a.pdf', size: 50 * 1024 * 1024 })).toBeNull();
    expect(uploadProblem({ name: 'a.pdf', size: 50 * 1024 * 1024 + 1 })).toBe('a.pdf：文件不能超过50MB');
    expect(fileSize(512)).toBe('512 B');
  });
  it('attachmentsComplete counts required slots only', () => {
    expect(attachmentsComplete(SLOTS, [att('1', 2211, 'a'), att('2', 2214, 'b')])).toBe(true);
    expect(attachmentsComplete(SLOTS, [att('1', 2211, 'a'), att('3', 2900, 'c')])).toBe(false);
  });
});
