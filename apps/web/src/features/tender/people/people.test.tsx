/**
 * Issue 17, people and certificates: 证书汇总 shows the counts, the chart and the expiring certificates
 * soonest first with days left; the certificate list filters by state (from ?state=) and asks before
 * deleting; the certificate editor shows the derived end day, sends an open end as null and shows the
 * server's refusal in place; the title editor sends the form as the schema wants it; the personnel editor
 * checks the ID card's check character before sending; the kinds tab saves a kind with its 延期办理期; the
 * 工作台 card shows the counts to roles 1, 6, 15 only; 可办理延期: the list's tag, 证书汇总's count opening
 * the filtered list, the editor's 可于…起办理延期.
 */
import '../../../test/dom';
import { configure, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { MemoryRouter, Route, Routes } from 'react-router';
import dayjs from 'dayjs';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { idCardCheckChar, type CertificateRow, type CertificateSummary, type CertKind, type PersonnelDetail } from '@zhyy/shared';

const certs = vi.hoisted(() => ({ list: vi.fn(), export: vi.fn(), detail: vi.fn(), save: vi.fn(), remove: vi.fn(), summary: vi.fn(), alerts: vi.fn(), card: vi.fn() }));
const titles = vi.hoisted(() => ({ list: vi.fn(), export: vi.fn(), detail: vi.fn(), save: vi.fn(), remove: vi.fn() }));
const personnel = vi.hoisted(() => ({ list: vi.fn(), export: vi.fn(), detail: vi.fn(), save: vi.fn(), options: vi.fn() }));
const kinds = vi.hoisted(() => ({ list: vi.fn(), save: vi.fn(), remove: vi.fn() }));
vi.mock('../../../api/tender-people', () => ({ certificateApi: certs, titleApi: titles, personnelApi: personnel, certKindApi: kinds }));
vi.mock('./PeopleScans', () => ({ PeopleScans: ({ ownerKind, ownerId }: { ownerKind: string; ownerId: string }) => <div data-testid="scans">{`${ownerKind}:${ownerId}`}</div> }));
vi.mock('../../../components/EChart', () => ({ EChart: ({ testId, option }: { testId: string; option: { yAxis: { data: string[] } } }) => <div data-testid={testId}>{option.yAxis.data.join(',')}</div> }));
vi.mock('../../../ui/feedback', async (orig) => ({ ...(await orig<object>()), feedback: () => ({ modal: { confirm: vi.fn() }, message: { success: vi.fn(), error: vi.fn() } }) }));

const { default: CollectPage, kindChart } = await import('./CollectPage');
const { default: CertificateListPage } = await import('./CertificateListPage');
const { default: CertificateEditPage, toCertBody, derivedEndText, renewalText } = await import('./CertificateEditPage');
const { default: TitleEditPage, toTitleBody } = await import('./TitleEditPage');
const { default: PersonnelEditPage } = await import('./PersonnelEditPage');
const { CertKindsTab, toKindBody } = await import('./CertKindsTab');
const { CertCard, mayOpenCollect } = await import('../../common/CertCard');
const { useSession } = await import('../../../stores/session');

configure({ asyncUtilTimeout: 15_000 });

const uuid = (n: number) => `0b7e5c1e-7c55-4a33-9f59-4c1b3e1f${String(n).padStart(4, '0')}`;
const AQ: CertKind = { id: uuid(1), name: '安全生产考核合格证书', levels: ['A', 'B', 'C'], hasSpeciality: false, validYears: 3, renewMonths: 3, sort: 10, certCount: 5 };
const JL: CertKind = { id: uuid(2), name: '监理工程师', levels: [], hasSpeciality: true, validYears: null, renewMonths: null, sort: 20, certCount: 0 };
const cert = (n: number, over: Partial<CertificateRow> = {}): CertificateRow => ({
  id: uuid(100 + n), userId: uuid(200 + n), holderName: `持证人${n}`, deptName: '工程一部', kindId: AQ.id, kindName: AQ.name, level: 'B', speciality: '', certNo: `AQ-${n}`,
  issuer: '江苏省住建厅', validFrom: '2024-01-01', validTo: '2026-12-31', company: '华建', remark: '', state: 'valid', daysLeft: 400, renewFrom: '2026-09-30', renewable: false, updatedBy: '马超', updatedAt: '2026-01-01T00:00:00Z', ...over,
});
const SUMMARY: CertificateSummary = {
  today: '2026-11-23', warnDays: 90, total: 10, valid: 6, expiring: 3, expired: 1, renewable: 2, titles: [{ level: 3, total: 4 }],
  kinds: [
    { kindId: AQ.id, kindName: AQ.name, total: 7, valid: 4, expiring: 2, expired: 1, byLevel: [{ level: 'A', total: 3, valid: 2, expiring: 1, expired: 0 }, { level: 'B', total: 4, valid: 2, expiring: 1, expired: 1 }] },
    { kindId: JL.id, kindName: JL.name, total: 3, valid: 2, expiring: 1, expired: 0, byLevel: [{ level: '', total: 3, valid: 2, expiring: 1, expired: 0 }] },
  ],
};

beforeEach(() => {
  for (const group of [certs, titles, personnel, kinds]) for (const f of Object.values(group)) f.mockReset();
  kinds.list.mockResolvedValue([AQ, JL]);
  personnel.options.mockResolvedValue([{ userId: uuid(300), name: '马超', loginName: 'demo15', deptName: '人力资源部' }]);
});

function show(path: string, pattern: string, element: ReactNode) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={[path]}>
        <Routes>
          <Route path={pattern} element={element} />
          <Route path="*" element={<div data-testid="elsewhere" />} />
        </Routes>
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

describe('证书汇总', { timeout: 60_000 }, () => {
  it('shows the totals, the chart by kind, the levels and the expiring certificates with days left', async () => {
    certs.summary.mockResolvedValue(SUMMARY);
    certs.alerts.mockResolvedValue({ total: 2, items: [cert(1, { state: 'expired', daysLeft: -3, validTo: '2026-11-20' }), cert(2, { state: 'expiring', daysLeft: 12, validTo: '2026-12-05' })] });
    show('/c', '/c', <CollectPage />);
    expect((await screen.findByTestId('collect-chart')).textContent).toBe('安全生产考核合格证书,监理工程师');
    expect(screen.getByText('90天内到期')).toBeTruthy();
    const alerts = screen.getByTestId('collect-alerts');
    await within(alerts).findByText('持证人1');
    expect(within(alerts).getByText('已过期 3 天')).toBeTruthy();
    expect(within(alerts).getByText('还剩 12 天')).toBeTruthy();
    expect(within(alerts).getByText('已过期')).toBeTruthy();
    expect(within(alerts).getByText('即将到期')).toBeTruthy();
    expect(certs.alerts).toHaveBeenCalledWith({ pageIndex: 1, pageSize: 10 });
    expect(within(screen.getByTestId('collect-levels')).getAllByRole('row')).toHaveLength(4);
    // 可办理延期: the count, opening the list filtered to them.
    const renewable = screen.getByTestId('collect-renewable');
    expect(renewable.textContent).toBe('可办理延期2');
    fireEvent.click(renewable);
    await screen.findByTestId('elsewhere');
  });
  it('the chart leaves out kinds without certificates; none at all is no chart', () => {
    expect(kindChart({ ...SUMMARY, kinds: [SUMMARY.kinds[0]!, { ...SUMMARY.kinds[1]!, total: 0, valid: 0, expiring: 0 }] })!.yAxis.data).toEqual([AQ.name]);
    expect(kindChart({ ...SUMMARY, kinds: [] })).toBeNull();
  });
  it('says so when nothing expires', async () => {
    certs.summary.mockResolvedValue({ ...SUMMARY, kinds: [], total: 0, valid: 0, expiring: 0, expired: 0 });
    certs.alerts.mockResolvedValue({ total: 0, items: [] });
    show('/c', '/c', <CollectPage />);
    expect(await screen.findByText('没有过期或即将到期的证书')).toBeTruthy();
    expect(screen.getAllByText('还没有资格证书').length).toBeGreaterThan(0);
  });
});

describe('资格证书', { timeout: 120_000 }, () => {
  it('opens filtered by ?state=expiring and deletes after a confirmation', async () => {
    certs.list.mockResolvedValue({ total: 1, items: [cert(1, { state: 'expiring', daysLeft: 0 })] });
    certs.remove.mockResolvedValue({ code: 20000, message: '已删除', r: null });
    show('/l?state=expiring', '/l', <CertificateListPage />);
    expect(await screen.findByText('今天到期')).toBeTruthy();
    expect(certs.list).toHaveBeenCalledWith({ state: 'expiring', pageIndex: 1, pageSize: 20 });
    fireEvent.click(screen.getByTestId(`cert-delete-${uuid(101)}`));
    expect(certs.remove).not.toHaveBeenCalled();
    const pop = (await screen.findByText(`删除 持证人1 的${AQ.name}（AQ-1）？`)).closest('.ant-popover')! as HTMLElement;
    fireEvent.click(within(pop).getByRole('button', { name: /删\s*除/ }));
    await waitFor(() => expect(certs.remove).toHaveBeenCalledWith(uuid(101)));
  });
  it('可办理延期: the tag on the certificates in their renewal window only; opened with ?state=renewable', async () => {
    certs.list.mockResolvedValue({
      total: 2,
      items: [cert(1, { state: 'expiring', daysLeft: 60, validTo: '2027-01-22', renewFrom: '2026-10-22', renewable: true }), cert(2, { state: 'valid', daysLeft: 120, validTo: '2027-03-23', renewFrom: '2026-12-23', renewable: false })],
    });
    show('/l?state=renewable', '/l', <CertificateListPage />);
    await screen.findByText('持证人2');
    const rows = screen.getAllByRole('row');
    const row = (name: string) => rows.find((r) => r.textContent?.includes(name))! as HTMLElement;
    await waitFor(() => expect(within(row('持证人1')).getByTestId('cert-renewable').textContent).toBe('可办理延期'));
    expect(within(row('持证人1')).getByTestId('cert-renewable').getAttribute('title')).toBe('2026-10-22 起可办理延期');
    expect(within(row('持证人2')).queryByTestId('cert-renewable')).toBeNull();
    expect(certs.list).toHaveBeenCalledWith({ state: 'renewable', pageIndex: 1, pageSize: 20 });
  });
  it('the state colour escalates with the reminder marks: 20 days left is red, 89 gold, expired solid (issue 31)', async () => {
    certs.list.mockResolvedValue({
      total: 4,
      items: [cert(1, { state: 'expiring', daysLeft: 89 }), cert(2, { state: 'expiring', daysLeft: 45 }), cert(3, { state: 'expiring', daysLeft: 20 }), cert(4, { state: 'expired', daysLeft: -3 })],
    });
    show('/l', '/l', <CertificateListPage />);
    await screen.findByText('持证人4');
    const row = (name: string) => screen.getAllByRole('row').find((r) => r.textContent?.includes(name))! as HTMLElement;
    const urgency = (name: string) => within(row(name)).getByTestId('cert-state').getAttribute('data-urgency');
    expect(['持证人1', '持证人2', '持证人3', '持证人4'].map(urgency)).toEqual(['gold', 'orange', 'red', 'expired']);
    const tag = (name: string) => within(row(name)).getByTestId('cert-state');
    expect(tag('持证人3').className).toContain('ant-tag-red');
    expect(tag('持证人1').className).not.toContain('ant-tag-orange');
    // 剩余 in danger within 30 days, as a warning before.
    expect(within(row('持证人3')).getByTestId('cert-days-left').className).toContain('danger');
    expect(within(row('持证人1')).getByTestId('cert-days-left').className).toContain('warning');
  });
  it('the editor: 可于 YYYY-MM-DD 起办理延期 for a kind with a renewal window, from the given or the derived end', async () => {
    expect(renewalText(AQ, dayjs('2024-03-01'), dayjs('2027-05-31'), false)).toBe('可于 2027-02-28 起办理延期（安全生产考核合格证书到期前3个月内）');
    expect(renewalText(AQ, dayjs('2024-03-01'), null, false)).toBe('可于 2026-11-28 起办理延期（安全生产考核合格证书到期前3个月内）');
    expect(renewalText(AQ, dayjs('2024-03-01'), null, true)).toBe('');
    expect(renewalText(JL, dayjs('2024-03-01'), dayjs('2027-05-31'), false)).toBe('');
    certs.detail.mockResolvedValue(cert(1, { validTo: '2026-12-31' }));
    show(`/e/${uuid(101)}`, '/e/:id', <CertificateEditPage />);
    expect((await screen.findByTestId('cert-renewal')).textContent).toBe('可于 2026-09-30 起办理延期（安全生产考核合格证书到期前3个月内）');
  });
  it('the editor: the derived end day, an open end as null, the refusal in place', async () => {
    expect(derivedEndText(AQ, dayjs('2024-03-01'))).toBe('留空按安全生产考核合格证书默认3年计算：2027-02-28');
    expect(derivedEndText(JL, dayjs('2024-03-01'))).toBe('监理工程师没有默认有效年限，留空为长期有效');
    expect(toCertBody({ userId: uuid(1), kindId: AQ.id, level: 'A', certNo: ' X1 ', validFrom: dayjs('2024-03-01'), validTo: dayjs('2025-01-01'), permanent: true })).toMatchObject({ certNo: 'X1', validFrom: '2024-03-01', validTo: null, permanent: true, level: 'A' });
    certs.detail.mockResolvedValue(cert(1));
    certs.save.mockRejectedValue(new Error('安全生产考核合格证书证书编号「AQ-1」已存在'));
    show(`/e/${uuid(101)}`, '/e/:id', <CertificateEditPage />);
    await screen.findByDisplayValue('AQ-1');
    expect(screen.getByTestId('scans').textContent).toBe(`certificate:${uuid(101)}`);
    fireEvent.click(screen.getByTestId('cert-save'));
    expect((await screen.findByTestId('cert-error')).textContent).toContain('已存在');
    expect(certs.save.mock.calls[0]![0]).toMatchObject({ id: uuid(101), userId: uuid(201), kindId: AQ.id, level: 'B', certNo: 'AQ-1', validFrom: '2024-01-01', validTo: '2026-12-31', permanent: false });
    expect(certs.save.mock.calls[0]![1]).toEqual({ silent: true });
  });
  it('a new certificate needs its holder, kind, number and start', async () => {
    show('/n', '/n', <CertificateEditPage />);
    fireEvent.click(await screen.findByTestId('cert-save'));
    for (const m of ['请选择持证人', '请选择证书种类', '请填写证书编号', '请选择有效期起']) expect(await screen.findByText(m)).toBeTruthy();
    expect(certs.save).not.toHaveBeenCalled();
  });
});

describe('职称证书 and 人员编辑', { timeout: 60_000 }, () => {
  it('the title form as the schema wants it; the saved title goes back to the list', async () => {
    expect(toTitleBody({ userId: uuid(1), level: 3, titleName: ' 高级工程师 ', certNo: 'T1', issueDate: dayjs('2020-12-01') }, uuid(9))).toEqual({ id: uuid(9), userId: uuid(1), level: 3, titleName: '高级工程师', speciality: '', certNo: 'T1', issuer: '', issueDate: '2020-12-01', remark: '' });
    titles.detail.mockResolvedValue({ id: uuid(9), userId: uuid(1), holderName: '陈静', deptName: '投标中心', level: 3, titleName: '高级工程师', speciality: '', certNo: 'T1', issuer: '', issueDate: '2020-12-01', remark: '', updatedBy: '', updatedAt: '' });
    titles.save.mockResolvedValue({ code: 20000, message: '保存成功', r: null });
    show(`/t/${uuid(9)}`, '/t/:id', <TitleEditPage />);
    await screen.findByDisplayValue('T1');
    fireEvent.click(screen.getByTestId('title-save'));
    await screen.findByTestId('elsewhere');
    expect(titles.save.mock.calls[0]![0]).toMatchObject({ id: uuid(9), level: 3, certNo: 'T1' });
  });
  it('refuses an ID card number with a wrong check character before sending; sends a right one in capitals', async () => {
    const facts = { userId: uuid(5), name: '黄丽', loginName: 'demo9', deptName: '投标中心', position: '标书专员', phone: '', active: true, idCard: '', gender: 0, birthDate: null, education: 0, school: '', major: '', graduationDate: null, hireDate: null, remark: '', updatedBy: '', updatedAt: null };
    personnel.detail.mockResolvedValue({ facts, titles: [], certificates: [] } satisfies PersonnelDetail);
    personnel.save.mockResolvedValue({ code: 20000, message: '保存成功', r: facts });
    show(`/p/${uuid(5)}`, '/p/:id', <PersonnelEditPage />);
    const input = await screen.findByTestId('id-card');
    const first = '11010519900307123';
    const good = first + idCardCheckChar(first);
    const bad = first + (good.endsWith('1') ? '2' : '1');
    fireEvent.change(input, { target: { value: bad } });
    fireEvent.click(screen.getByTestId('personnel-save'));
    expect(await screen.findByText('身份证号校验位不正确')).toBeTruthy();
    expect(personnel.save).not.toHaveBeenCalled();
    fireEvent.change(input, { target: { value: good.toLowerCase() } });
    // Leaving the field fills the birth day and the gender (the 17th digit, 3: odd, 男) from the number.
    fireEvent.blur(input);
    fireEvent.click(screen.getByTestId('personnel-save'));
    await waitFor(() => expect(personnel.save).toHaveBeenCalled());
    expect(personnel.save.mock.calls[0]![0]).toMatchObject({ userId: uuid(5), idCard: good, birthDate: '1990-03-07', gender: 1 });
  });
});

describe('证书种类 and the 工作台 card', { timeout: 60_000 }, () => {
  it('saves a new kind with its levels and default years; shows the refusal in place', async () => {
    expect(toKindBody({ name: ' 特种作业 ', levels: [' 高压 ', ''], validYears: 6 })).toEqual({ name: '特种作业', levels: ['高压'], hasSpeciality: false, validYears: 6, renewMonths: null, sort: 0 });
    expect(toKindBody({ name: '安全生产许可证', validYears: 3, renewMonths: 3 })).toMatchObject({ validYears: 3, renewMonths: 3 });
    kinds.save.mockRejectedValueOnce(new Error('证书种类「监理工程师」已存在'));
    show('/k', '/k', <CertKindsTab />);
    await screen.findByText('安全生产考核合格证书');
    expect(screen.getByText('3 年')).toBeTruthy();
    expect(screen.getByText('到期前 3 个月')).toBeTruthy();
    fireEvent.click(screen.getByTestId('kind-new'));
    const dialog = await screen.findByRole('dialog');
    fireEvent.change(within(dialog).getByLabelText('名称'), { target: { value: '监理工程师' } });
    fireEvent.click(within(dialog).getByRole('button', { name: /保\s*存/ }));
    expect((await screen.findByTestId('kind-error')).textContent).toContain('已存在');
    expect(kinds.save.mock.calls[0]![0]).toMatchObject({ name: '监理工程师', levels: [], validYears: null, renewMonths: null });
  });
  it('modifies a kind\'s 延期办理期; more months than its years is refused before sending', async () => {
    kinds.save.mockResolvedValue({ code: 20000, message: '保存成功', r: [AQ, JL] });
    show('/k', '/k', <CertKindsTab />);
    fireEvent.click(await screen.findByTestId(`kind-edit-${AQ.id}`));
    const dialog = await screen.findByRole('dialog');
    const renew = within(dialog).getByTestId('kind-renew');
    expect((renew as HTMLInputElement).value).toBe('3');
    fireEvent.change(renew, { target: { value: '24' } });
    fireEvent.change(within(dialog).getByLabelText('默认有效年限'), { target: { value: '1' } });
    fireEvent.click(within(dialog).getByRole('button', { name: /保\s*存/ }));
    expect(await within(dialog).findByText('延期办理期不能超过默认有效年限')).toBeTruthy();
    expect(kinds.save).not.toHaveBeenCalled();
    fireEvent.change(renew, { target: { value: '6' } });
    fireEvent.click(within(dialog).getByRole('button', { name: /保\s*存/ }));
    await waitFor(() => expect(kinds.save).toHaveBeenCalled());
    expect(kinds.save.mock.calls[0]![0]).toMatchObject({ id: AQ.id, name: AQ.name, validYears: 1, renewMonths: 6 });
  });
  it('the card: roles 1, 6 and 15 see the counts; others nothing', async () => {
    expect(['1', '6', '15'].map((r) => mayOpenCollect([r]))).toEqual([true, true, true]);
    expect(['4', '9', '23'].map((r) => mayOpenCollect([r]))).toEqual([false, false, false]);
    certs.card.mockResolvedValue({ expired: 4, expiring: 17, warnDays: 90 });
    useSession.setState({ roles: ['15'] } as never);
    show('/', '/', <CertCard />);
    await waitFor(() => expect(screen.getByTestId('cert-card-expiring').textContent).toContain('17'));
    expect(screen.getByTestId('cert-card-expired').textContent).toContain('4');
  });
  it('shows nothing and asks nothing to role 9', () => {
    useSession.setState({ roles: ['9'] } as never);
    show('/', '/', <CertCard />);
    expect(screen.queryByTestId('cert-card')).toBeNull();
    expect(certs.card).not.toHaveBeenCalled();
  });
});
