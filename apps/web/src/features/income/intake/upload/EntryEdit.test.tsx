/**
 * Issue 13, 进项发票编辑: files chosen together are recognised one call each, one after another, each card
 * showing its state (识别中, 已识别, 识别失败 with the server's reason) and the overall progress; a recognised
 * file's fields fill the form, each marked with its source; saving sends the face with the same file. A
 * malformed id shows the 404 page without a request; an existing invoice shows its face.
 */
import '../../../../test/dom';
import { act, configure, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { UploadRecognition } from '@zhyy/shared';
import { ApiError } from '../../../../api/errors';
import { ViewContext, type ViewInfo } from '../../../../router/view';
import { poolDetail } from '../../pool/testRows';
import EntryEdit from './EntryEdit';

const recognise = vi.fn();
const save = vi.fn();
const detail = vi.fn();
vi.mock('../../../../api/incomeUpload', () => ({
  incomeUploadApi: { recognise: (...a: unknown[]) => recognise(...a), save: (...a: unknown[]) => save(...a), detail: (...a: unknown[]) => detail(...a) },
}));
vi.mock('../../../../api/income', () => ({ incomeApi: { save: vi.fn() } }));

configure({ asyncUtilTimeout: 15_000 });
beforeEach(() => {
  recognise.mockReset();
  save.mockReset();
  detail.mockReset();
});

function renderPage(id: string) {
  const view = { path: '/invoice-entry/edit/:id', fullPath: `/invoice-entry/edit/${id}`, search: '', params: { id }, route: {} as ViewInfo['route'], active: true } as ViewInfo;
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <MemoryRouter>
        <ViewContext.Provider value={view}><EntryEdit /></ViewContext.Provider>
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

const XML: UploadRecognition = {
  fileName: 'invoice-sd.xml', format: 'xml', size: 5, sha256: 'a',
  fields: [
    { key: 'kindCode', label: '发票种类', value: '82', source: 'xml', sourceLabel: 'XML' },
    { key: 'invoiceNo', label: '发票号码', value: '25322000000104857316', source: 'xml', sourceLabel: 'XML' },
    { key: 'sellerName', label: '销方名称', value: '苏州明达机电设备有限公司', source: 'xml', sourceLabel: 'XML' },
  ],
  warnings: ['购方名称未识别，请核对'],
  draft: { kind: '82', digitalNo: '25322000000104857316', issueDate: '2025-03-18', sellerName: '苏州明达机电设备有限公司', buyerName: '华建工程技术服务有限公司', amountExcl: 1497000, tax: 194610, amountIncl: 1691610 },
  inPool: null,
};

/** Chooses files on the page's upload input, as a user picking several at once. */
function choose(container: HTMLElement, files: File[]) {
  const input = container.querySelector('[data-testid="upload-panel"] input[type=file]') as HTMLInputElement;
  fireEvent.change(input, { target: { files } });
}

describe('进项发票编辑 (issue 13)', { timeout: 60_000 }, () => {
  it('recognises several files one call each, in turn, with each state, the reason of a failure and the progress', async () => {
    let release!: (r: UploadRecognition) => void;
    recognise.mockImplementationOnce(() => new Promise<UploadRecognition>((r) => (release = r)));
    recognise.mockRejectedValueOnce(new ApiError('business', '文件内容与扩展名不符，只能上传PDF、OFD、XML、JPG或PNG文件', { code: 30000, status: 400 }));
    const { container } = renderPage('new');
    expect(screen.getByText('上传发票')).toBeTruthy();
    expect(screen.getByText('手工录入')).toBeTruthy();
    choose(container, [
      new File(['<xml/>'], 'invoice-sd.xml', { type: 'text/xml' }),
      new File(['%PDF'], 'fake.pdf', { type: 'application/pdf' }),
      new File(['x'], 'notes.docx'),
    ]);
    const cards = () => screen.getAllByTestId('upload-file');
    await waitFor(() => expect(cards()).toHaveLength(3));
    const card = (name: string) => cards().find((c) => c.getAttribute('data-file') === name)!;
    // The first is being recognised, the second waits for it; the third was refused without a call.
    await waitFor(() => expect(card('invoice-sd.xml').getAttribute('data-state')).toBe('recognising'));
    expect(within(card('invoice-sd.xml')).getByTestId('upload-state').textContent).toBe('识别中');
    expect(within(card('fake.pdf')).getByTestId('upload-state').textContent).toBe('等待识别');
    expect(within(card('notes.docx')).getByTestId('upload-reason').textContent).toContain('只能上传PDF、OFD、XML、JPG或PNG文件');
    expect(recognise).toHaveBeenCalledTimes(1);
    expect(recognise.mock.calls[0]![0]).toEqual({ fileName: 'invoice-sd.xml', content: btoa('<xml/>') });
    expect(screen.getByTestId('upload-progress-text').textContent).toBe('正在识别：已完成 1/3 个文件');

    await act(async () => release(XML));
    await waitFor(() => expect(card('fake.pdf').getAttribute('data-state')).toBe('failed'));
    expect(recognise).toHaveBeenCalledTimes(2);
    expect(within(card('invoice-sd.xml')).getByTestId('upload-state').textContent).toBe('已识别');
    expect(within(card('fake.pdf')).getByTestId('upload-reason').textContent).toContain('文件内容与扩展名不符');
    expect(screen.getByTestId('upload-progress-text').textContent).toBe('识别完成：共 3 个文件，已识别 1 个，失败 2 个');

    // The recognised card: the form filled, each field with its source, the warnings.
    const xml = card('invoice-sd.xml');
    expect((xml.querySelector('input[id$="_digitalNo"]') as HTMLInputElement).value).toBe('25322000000104857316');
    expect((xml.querySelector('input[id$="_sellerName"]') as HTMLInputElement).value).toBe('苏州明达机电设备有限公司');
    expect(within(xml).getByTestId('source-mark-digitalNo').textContent).toBe('识别自XML');
    expect(within(xml).getByTestId('source-mark-sellerName').textContent).toBe('识别自XML');
    expect(within(xml).queryByTestId('source-mark-buyerName')).toBeNull();
    expect(within(xml).getByTestId('upload-warnings').textContent).toContain('购方名称未识别，请核对');

    // A correction is marked; saving sends the corrected face with the same file and shows the answer.
    fireEvent.change(xml.querySelector('input[id$="_sellerName"]')!, { target: { value: '苏州明达机电有限公司' } });
    await waitFor(() => expect(within(xml).getByTestId('source-mark-sellerName').textContent).toBe('与识别值不同（XML）'));
    save.mockResolvedValue({ code: 20000, message: '已加入票池', r: { id: '0b7e5c1e-7c55-4a33-9f59-4c1b3e1f0a01', outcome: 'created', message: '已加入票池', warnings: ['购方非本公司'] } });
    fireEvent.click(within(xml).getByTestId('upload-save'));
    await waitFor(() => expect(save).toHaveBeenCalledTimes(1));
    const body = save.mock.calls[0]![0] as Record<string, unknown>;
    expect(body).toMatchObject({ kind: '82', digitalNo: '25322000000104857316', sellerName: '苏州明达机电有限公司', issueDate: '2025-03-18', amountExcl: 1497000, tax: 194610, amountIncl: 1691610 });
    expect(body.files).toEqual([{ fileName: 'invoice-sd.xml', content: btoa('<xml/>') }]);
    const saved = await within(xml).findByTestId('upload-saved');
    expect(saved.textContent).toContain('已加入票池');
    expect(saved.textContent).toContain('购方非本公司');
  });

  it('a face the checks refuse is not sent: the server\'s words on the card', async () => {
    recognise.mockResolvedValue({ ...XML, draft: { ...XML.draft, amountIncl: 1691611 }, warnings: [] });
    const { container } = renderPage('new');
    choose(container, [new File(['<xml/>'], 'invoice-sd.xml', { type: 'text/xml' })]);
    const card = await screen.findByTestId('upload-file');
    await waitFor(() => expect(card.getAttribute('data-state')).toBe('recognised'));
    fireEvent.click(within(card).getByTestId('upload-save'));
    expect((await within(card).findByTestId('entry-problems')).textContent).toContain('金额与税额之和不等于价税合计');
    expect(save).not.toHaveBeenCalled();
  });

  it('a file already in the pool says so', async () => {
    recognise.mockResolvedValue({ ...XML, inPool: { id: '0b7e5c1e-7c55-4a33-9f59-4c1b3e1f0a01', number: '25322000000104857316' } });
    const { container } = renderPage('new');
    choose(container, [new File(['<xml/>'], 'invoice-sd.xml', { type: 'text/xml' })]);
    expect((await screen.findByTestId('upload-in-pool')).textContent).toContain('该文件已在票池中（发票 25322000000104857316），再次保存将合并到该发票');
  });

  it('a malformed id: the 404 page, no request', async () => {
    renderPage('abc');
    expect(await screen.findByText('发票不存在')).toBeTruthy();
    expect(screen.getByRole('button', { name: '返回进项发票登记' })).toBeTruthy();
    expect(detail).not.toHaveBeenCalled();
  });

  it('an unknown id: one silent request, the 404 page', async () => {
    detail.mockRejectedValue(new ApiError('business', '发票不存在', { code: 30000, status: 404 }));
    renderPage('0b7e5c1e-7c55-4a33-9f59-4c1b3e1f0a99');
    expect(await screen.findByText('发票不存在')).toBeTruthy();
    expect(detail).toHaveBeenCalledTimes(1);
  });

  it('an invoice: its face, and an added file starts from that face with the recognised values that differ marked', async () => {
    detail.mockResolvedValue({ ...poolDetail({ kind: '82', digitalNo: '25322000000104857316', sellerName: '苏州明达机电设备有限公司' }), deptId: null, deptName: '', signings: [], revokes: [], allocations: [], changes: [] });
    recognise.mockResolvedValue({ ...XML, draft: { ...XML.draft, sellerName: '苏州明达' }, fields: [{ key: 'sellerName', label: '销方名称', value: '苏州明达', source: 'pdf-text', sourceLabel: 'PDF文字' }] });
    const { container } = renderPage('0b7e5c1e-7c55-4a33-9f59-4c1b3e1f0a01');
    expect((await screen.findByTestId('entry-face')).textContent).toContain('苏州明达机电设备有限公司');
    choose(container, [new File(['%PDF'], 'invoice-sd.pdf', { type: 'application/pdf' })]);
    const card = await screen.findByTestId('upload-file');
    await waitFor(() => expect(card.getAttribute('data-state')).toBe('recognised'));
    expect((card.querySelector('input[id$="_sellerName"]') as HTMLInputElement).value).toBe('苏州明达机电设备有限公司');
    expect(within(card).getByTestId('source-mark-sellerName').textContent).toBe('与识别值不同（PDF文字）');
    // The same number: no warning of another invoice.
    expect(within(card).queryByTestId('upload-other-invoice')).toBeNull();
  });

  it('an invoice: a file that names another invoice is warned about before it is merged', async () => {
    detail.mockResolvedValue({ ...poolDetail({ kind: '82', digitalNo: '26322000000012345678' }), deptId: null, deptName: '', signings: [], revokes: [], allocations: [], changes: [] });
    recognise.mockResolvedValue(XML);
    const { container } = renderPage('0b7e5c1e-7c55-4a33-9f59-4c1b3e1f0a01');
    await screen.findByTestId('entry-face');
    choose(container, [new File(['<xml/>'], 'invoice-sd.xml', { type: 'text/xml' })]);
    expect((await screen.findByTestId('upload-other-invoice')).textContent).toBe('该文件识别出的发票号码（25322000000104857316）与本发票不一致，请确认是否为同一张发票；保存将把文件合并到本发票');
  });
});
