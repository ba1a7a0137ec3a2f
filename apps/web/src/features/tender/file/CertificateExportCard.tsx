/**
 * What both certificate export pages share once the certificates are picked: the tender's deadline,
 * the check of each certificate or title on it (expired or not yet valid on the deadline in red, a
 * missing scan), the export options and the job panel.
 */
import { useQuery } from '@tanstack/react-query';
import { Alert, Card, DatePicker, Form, Space, Table } from 'antd';
import dayjs from 'dayjs';
import { useState } from 'react';
import type { CertificateCheckRow } from '@zhyy/shared';
import { tenderExportApi } from '../../../api/tender-export';
import { Verdict } from './pickParts';
import { ExportJobPanel } from './ExportJobPanel';
import { ExportOptions } from './ExportOptions';
import { splitChecked } from './exportLogic';
import { todayDay } from './PerformanceRule';

export function CertificateResults({ rows, loading }: { rows: CertificateCheckRow[]; loading?: boolean }) {
  return (
    <Table<CertificateCheckRow>
      rowKey={(r) => `${r.kind}:${r.id}`}
      size="small"
      loading={loading}
      pagination={false}
      dataSource={rows}
      scroll={{ x: 900 }}
      locale={{ emptyText: '请先选择证书' }}
      data-testid="certificate-results"
      columns={[
        { title: '持证人', dataIndex: 'holderName', width: 100 },
        { title: '类别', dataIndex: 'kind', width: 70, render: (k: string) => (k === 'title' ? '职称' : '资格证书') },
        { title: '证书', dataIndex: 'name', ellipsis: true },
        { title: '级别', dataIndex: 'level', width: 80 },
        { title: '证书编号', dataIndex: 'certNo', width: 150 },
        { title: '有效期', key: 'valid', width: 200, render: (_, r) => (r.kind === 'title' ? `${r.validFrom ?? ''} 取得` : `${r.validFrom ?? ''} 至 ${r.validTo ?? '长期'}`) },
        { title: '扫描件', dataIndex: 'scanCount', width: 70, align: 'right' },
        {
          title: '核查结果',
          key: 'verdict',
          width: 280,
          render: (_, r) => <Verdict problems={r.problems} passed="截止日有效" />,
        },
      ]}
    />
  );
}

export function CertificateExportCard({ certificateIds, titleIds, defaultTitle }: { certificateIds: string[]; titleIds: string[]; defaultTitle: string }) {
  const [deadline, setDeadline] = useState(todayDay());
  const count = certificateIds.length + titleIds.length;
  const check = useQuery({
    queryKey: ['tender', 'export', 'certificate-check', certificateIds, titleIds, deadline],
    queryFn: () => tenderExportApi.certificateCheck({ certificateIds, titleIds, deadline }),
    enabled: count > 0,
  });
  const rows = count ? (check.data ?? []) : [];
  const { bad } = splitChecked(rows);
  return (
    <Space orientation="vertical" size="middle" style={{ width: '100%' }}>
      <Card title={`核查（${count}项）`} size="small">
        <Form layout="inline" style={{ marginBottom: 12 }}>
          <Form.Item label="投标截止日" required extra="证书须在投标截止日有效，而不只是今天">
            <DatePicker value={dayjs(deadline)} allowClear={false} onChange={(d) => d && setDeadline(d.format('YYYY-MM-DD'))} aria-label="投标截止日" />
          </Form.Item>
        </Form>
        {bad.length > 0 && <Alert type="warning" showIcon style={{ marginBottom: 12 }} title={`有${bad.length}项在投标截止日无效或缺少扫描件，导出时需确认`} />}
        <CertificateResults rows={rows} loading={count > 0 && check.isLoading} />
      </Card>
      <Card title="导出设置" size="small">
        <ExportOptions
          kind="certificate"
          defaultTitle={defaultTitle}
          count={check.isSuccess && count ? rows.length : 0}
          failed={bad.length}
          create={(o) => tenderExportApi.certificateCreate({ certificateIds, titleIds, deadline, ...o })}
        />
      </Card>
      <ExportJobPanel kind="certificate" />
    </Space>
  );
}
