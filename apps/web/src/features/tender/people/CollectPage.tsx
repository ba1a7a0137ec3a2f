/**
 * 证书汇总 (the landing page of role 15): counts by kind and level, valid / expiring / expired per kind as a
 * stacked bar chart, titles by level, and the certificates expired or expiring within 90 days, soonest
 * first, with holder and days left. 可办理延期 counts the certificates in the renewal window of their kind and
 * opens the list filtered to them.
 */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Button, Card, Col, Empty, Row, Statistic, Table, Typography, type TableColumnsType } from 'antd';
import { useMemo, useState } from 'react';
import { useNavigate } from 'react-router';
import { TitleLevel, type CertificateRow, type CertificateSummary } from '@zhyy/shared';
import { certificateApi } from '../../../api/tender-people';
import { EChart } from '../../../components/EChart';
import { pageFromTable, tableLocale, tablePagination } from '../../../components/listTable';
import { tableScrollX } from '../../../components/tableWidth';
import { CertStateCell, daysLeftText, PEOPLE_KEY, PEOPLE_PATHS } from './common';
import '../../../components/listPage.css';

/** The chart: one stacked bar per kind (有效 green, 即将到期 orange, 已过期 red). */
export function kindChart(s: CertificateSummary) {
  const kinds = s.kinds.filter((k) => k.total > 0);
  if (!kinds.length) return null;
  return {
    tooltip: { trigger: 'axis' },
    legend: { data: ['有效', '即将到期', '已过期'], top: 0 },
    grid: { left: 8, right: 16, bottom: 8, top: 36, containLabel: true },
    xAxis: { type: 'value', minInterval: 1 },
    yAxis: { type: 'category', data: kinds.map((k) => k.kindName), inverse: true },
    series: [
      { name: '有效', type: 'bar', stack: 'n', color: '#52c41a', data: kinds.map((k) => k.valid) },
      { name: '即将到期', type: 'bar', stack: 'n', color: '#fa8c16', data: kinds.map((k) => k.expiring) },
      { name: '已过期', type: 'bar', stack: 'n', color: '#f5222d', data: kinds.map((k) => k.expired) },
    ],
  };
}

/** Five cards: two a row on a phone, three on a tablet, one row of five from 1200 px. */
const CARD = { xs: 12, md: 8, xl: { flex: '20%' } } as const;

interface LevelRow { key: string; kindName: string; level: string; total: number; valid: number; expiring: number; expired: number }

export default function CollectPage() {
  const navigate = useNavigate();
  const [page, setPage] = useState({ pageIndex: 1, pageSize: 10 });
  const summary = useQuery({ queryKey: [...PEOPLE_KEY, 'summary'], queryFn: () => certificateApi.summary() });
  const alerts = useQuery({ queryKey: [...PEOPLE_KEY, 'alerts', page], queryFn: () => certificateApi.alerts(page), placeholderData: keepPreviousData });
  const s = summary.data;
  const chart = useMemo(() => (s ? kindChart(s) : null), [s]);
  const levelRows: LevelRow[] = (s?.kinds ?? []).flatMap((k) =>
    k.byLevel.map((l) => ({ key: `${k.kindId}|${l.level}`, kindName: k.kindName, level: l.level || '—', total: l.total, valid: l.valid, expiring: l.expiring, expired: l.expired })),
  );
  const levelColumns: TableColumnsType<LevelRow> = [
    { title: '证书种类', dataIndex: 'kindName', key: 'kindName', width: 160 },
    { title: '级别', dataIndex: 'level', key: 'level', width: 70 },
    { title: '合计', dataIndex: 'total', key: 'total', width: 70, align: 'right' },
    { title: '有效', dataIndex: 'valid', key: 'valid', width: 70, align: 'right' },
    { title: '即将到期', dataIndex: 'expiring', key: 'expiring', width: 80, align: 'right', render: (v: number) => (v ? <Typography.Text type="warning">{v}</Typography.Text> : 0) },
    { title: '已过期', dataIndex: 'expired', key: 'expired', width: 70, align: 'right', render: (v: number) => (v ? <Typography.Text type="danger">{v}</Typography.Text> : 0) },
  ];
  const alertColumns: TableColumnsType<CertificateRow> = [
    { title: '持证人', key: 'holder', width: 90, render: (_, r) => <a onClick={() => navigate(PEOPLE_PATHS.personnelDetail(r.userId))}>{r.holderName}</a> },
    { title: '部门', dataIndex: 'deptName', key: 'deptName', width: 110, ellipsis: true },
    { title: '证书种类', dataIndex: 'kindName', key: 'kindName', width: 150, ellipsis: true },
    { title: '级别', dataIndex: 'level', key: 'level', width: 60 },
    { title: '证书编号', dataIndex: 'certNo', key: 'certNo', width: 150, ellipsis: true },
    { title: '有效期至', dataIndex: 'validTo', key: 'validTo', width: 100 },
    { title: '状态', key: 'state', width: 170, render: (_, r) => <CertStateCell cert={r} /> },
    { title: '剩余天数', key: 'daysLeft', width: 110, render: (_, r) => <Typography.Text type={r.state === 'expired' ? 'danger' : 'warning'}>{daysLeftText(r.daysLeft)}</Typography.Text> },
    { title: '操作', key: 'actions', width: 80, fixed: 'right', render: (_, r) => <Button type="link" size="small" onClick={() => navigate(PEOPLE_PATHS.certificateModify(r.id))}>更新</Button> },
  ];
  return (
    <div className="list-page" data-testid="cert-collect">
      <Row gutter={[12, 12]}>
        <Col {...CARD}><Card size="small"><Statistic title="证书总数" value={s?.total ?? '-'} loading={summary.isLoading} /></Card></Col>
        <Col {...CARD}><Card size="small"><Statistic title="有效" value={s?.valid ?? '-'} loading={summary.isLoading} styles={{ content: { color: '#389e0d' } }} /></Card></Col>
        <Col {...CARD}>
          <Card size="small" hoverable onClick={() => navigate(`${PEOPLE_PATHS.certificates}?state=expiring`)}>
            <Statistic title={`${s?.warnDays ?? 90}天内到期`} value={s?.expiring ?? '-'} loading={summary.isLoading} styles={{ content: { color: '#d46b08' } }} />
          </Card>
        </Col>
        <Col {...CARD}>
          <Card size="small" hoverable onClick={() => navigate(`${PEOPLE_PATHS.certificates}?state=expired`)}>
            <Statistic title="已过期" value={s?.expired ?? '-'} loading={summary.isLoading} styles={{ content: { color: '#cf1322' } }} />
          </Card>
        </Col>
        <Col {...CARD}>
          <Card size="small" hoverable onClick={() => navigate(`${PEOPLE_PATHS.certificates}?state=renewable`)} data-testid="collect-renewable">
            <Statistic title="可办理延期" value={s?.renewable ?? '-'} loading={summary.isLoading} styles={{ content: { color: '#08979c' } }} />
          </Card>
        </Col>
        <Col xs={24} xl={12}>
          <Card size="small" title="各类证书状态">
            {summary.isLoading ? null : chart ? <EChart option={chart} height={Math.max(220, (s?.kinds.filter((k) => k.total).length ?? 0) * 34 + 60)} testId="collect-chart" /> : <Empty description="还没有资格证书" />}
          </Card>
        </Col>
        <Col xs={24} xl={12}>
          <Card size="small" title="按种类与级别" extra={s?.titles.length ? <Typography.Text type="secondary">职称：{s.titles.map((t) => `${TitleLevel.label(t.level)} ${t.total}`).join('，')}</Typography.Text> : null}>
            <Table<LevelRow> rowKey="key" size="small" columns={levelColumns} dataSource={levelRows} loading={summary.isFetching} pagination={false} scroll={{ y: 260 }} locale={tableLocale(summary.isError, '还没有资格证书')} data-testid="collect-levels" />
          </Card>
        </Col>
        <Col xs={24}>
          <Card size="small" title={`已过期及${s?.warnDays ?? 90}天内到期的证书（到期日最早的在前）`}>
            <Table<CertificateRow>
              rowKey="id"
              size="small"
              columns={alertColumns}
              dataSource={alerts.data?.items ?? []}
              loading={alerts.isFetching}
              scroll={{ x: tableScrollX(alertColumns) }}
              locale={tableLocale(alerts.isError, '没有过期或即将到期的证书')}
              pagination={tablePagination(page, alerts.data?.total ?? 0, '本')}
              onChange={(p) => setPage(pageFromTable(p, page))}
              data-testid="collect-alerts"
            />
          </Card>
        </Col>
      </Row>
    </div>
  );
}
