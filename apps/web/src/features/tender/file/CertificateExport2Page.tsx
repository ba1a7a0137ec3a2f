/**
 * 证书文件导出 (/tender/file/certificate-file-export2, roles 1, 6, 9, 23; role 23's landing page): pick
 * qualification certificates (kind, level, holder or number; today's state shown), check them on the
 * tender's deadline and export their scans as one PDF or a zip.
 */
import { useQuery } from '@tanstack/react-query';
import { Button, Card, Input, Select, Space, Table, Typography } from 'antd';
import { useState } from 'react';
import type { CertificateRow } from '@zhyy/shared';
import { tenderExportApi } from '../../../api/tender-export';
import { CertStateTag, kindOptions, useCertKinds } from '../people/common';
import { CertificateExportCard } from './CertificateExportCard';
import { pickTableProps } from './pickParts';

export default function CertificateExport2Page() {
  const kinds = useCertKinds();
  const [filter, setFilter] = useState<{ keyword: string; kindId?: string; level?: string }>({ keyword: '' });
  const [page, setPage] = useState({ pageIndex: 1, pageSize: 10 });
  const [picked, setPicked] = useState<string[]>([]);
  const list = useQuery({
    queryKey: ['tender', 'export', 'certificates', filter, page],
    queryFn: () => tenderExportApi.certificateList({ ...page, keyword: filter.keyword || undefined, kindId: filter.kindId, level: filter.level || undefined }),
  });
  const levels = (kinds.data ?? []).find((k) => k.id === filter.kindId)?.levels ?? [];
  const reset = () => setPage((p) => ({ ...p, pageIndex: 1 }));
  return (
    <Space orientation="vertical" size="middle" style={{ width: '100%' }}>
      <Card title="选择证书" size="small" extra={<Typography.Text type="secondary">已选 {picked.length} 个</Typography.Text>}>
        <Space wrap style={{ marginBottom: 12 }}>
          <Select placeholder="证书种类" allowClear style={{ width: 200 }} options={kindOptions(kinds.data)} aria-label="证书种类" onChange={(kindId?: string) => (setFilter((f) => ({ ...f, kindId, level: undefined })), reset())} />
          <Select placeholder="级别" allowClear style={{ width: 120 }} disabled={!levels.length} value={filter.level} options={levels.map((l) => ({ value: l, label: l }))} aria-label="级别" onChange={(level?: string) => (setFilter((f) => ({ ...f, level })), reset())} />
          <Input.Search placeholder="持证人或证书编号" allowClear style={{ width: 220 }} aria-label="持证人或证书编号" onSearch={(keyword) => (setFilter((f) => ({ ...f, keyword: keyword.trim() })), reset())} />
          <Button onClick={() => setPicked([])} disabled={!picked.length}>
            清空已选
          </Button>
        </Space>
        <Table<CertificateRow>
          rowKey="id"
          size="small"
          loading={list.isLoading}
          dataSource={list.data?.items ?? []}
          {...pickTableProps({ picked, onPick: setPicked, page, onPage: setPage, total: list.data?.total ?? 0 })}
          locale={{ emptyText: '没有符合条件的证书' }}
          scroll={{ x: 900 }}
          columns={[
            { title: '持证人', dataIndex: 'holderName', width: 100 },
            { title: '证书种类', dataIndex: 'kindName', ellipsis: true },
            { title: '级别', dataIndex: 'level', width: 80 },
            { title: '证书编号', dataIndex: 'certNo', width: 160 },
            { title: '有效期至', dataIndex: 'validTo', width: 110, render: (v: string | null) => v ?? '长期' },
            { title: '今日状态', dataIndex: 'state', width: 100, render: (s: CertificateRow['state'], r: CertificateRow) => <CertStateTag state={s} daysLeft={r.daysLeft} /> },
          ]}
        />
      </Card>
      <CertificateExportCard certificateIds={picked} titleIds={[]} defaultTitle="资格证书" />
    </Space>
  );
}
