/**
 * 人员证书导出 (/tender/file/certificate-file-export): pick people, take their qualification certificates
 * and titles (all ticked at first; untick what the tender does not ask for), check them on the tender's
 * deadline and export their scans.
 */
import { useQueries, useQuery } from '@tanstack/react-query';
import { Card, Select, Space, Table, Typography } from 'antd';
import { useState } from 'react';
import { TitleLevel } from '@zhyy/shared';
import { tenderExportApi } from '../../../api/tender-export';
import { CertificateExportCard } from './CertificateExportCard';

interface Item {
  key: string;
  kind: 'certificate' | 'title';
  id: string;
  holderName: string;
  name: string;
  level: string;
  certNo: string;
  validTo: string | null;
}

/** A person's certificates and titles as rows of one table, certificates first. */
export function itemsOfPeople(parts: readonly ({ certificates: { id: string; holderName: string; kindName: string; level: string; certNo: string; validTo: string | null }[]; titles: { id: string; holderName: string; titleName: string; level: number; certNo: string }[] } | undefined)[], titleLabel: (level: number) => string): Item[] {
  return parts.flatMap((p) =>
    p
      ? [
          ...p.certificates.map((c) => ({ key: `certificate:${c.id}`, kind: 'certificate' as const, id: c.id, holderName: c.holderName, name: c.kindName, level: c.level, certNo: c.certNo, validTo: c.validTo })),
          ...p.titles.map((t) => ({ key: `title:${t.id}`, kind: 'title' as const, id: t.id, holderName: t.holderName, name: t.titleName, level: titleLabel(t.level), certNo: t.certNo, validTo: null })),
        ]
      : [],
  );
}

/** The ticked rows as the check's body; a row not ticked away stays in. */
export function pickedIds(items: readonly Item[], unticked: ReadonlySet<string>): { certificateIds: string[]; titleIds: string[] } {
  const kept = items.filter((i) => !unticked.has(i.key));
  return { certificateIds: kept.filter((i) => i.kind === 'certificate').map((i) => i.id), titleIds: kept.filter((i) => i.kind === 'title').map((i) => i.id) };
}

export default function CertificateExportPage() {
  const [keyword, setKeyword] = useState('');
  const [people, setPeople] = useState<string[]>([]);
  const [unticked, setUnticked] = useState<Set<string>>(new Set());
  const options = useQuery({ queryKey: ['tender', 'export', 'people', keyword], queryFn: () => tenderExportApi.personnelOptions(keyword || undefined) });
  const [known, setKnown] = useState<Record<string, string>>({});
  const parts = useQueries({ queries: people.map((userId) => ({ queryKey: ['tender', 'export', 'person-items', userId], queryFn: () => tenderExportApi.personnelItems(userId) })) });
  const items = itemsOfPeople(parts.map((p) => p.data), (l) => TitleLevel.label(l));
  const ids = pickedIds(items, unticked);
  const selectOptions = [
    ...(options.data ?? []).map((o) => ({ value: o.userId, label: `${o.name}（${o.loginName}${o.deptName ? `，${o.deptName}` : ''}）` })),
    ...people.filter((id) => !(options.data ?? []).some((o) => o.userId === id)).map((id) => ({ value: id, label: known[id] ?? id })),
  ];
  return (
    <Space orientation="vertical" size="middle" style={{ width: '100%' }}>
      <Card title="选择人员" size="small">
        <Select
          mode="multiple"
          showSearch={{ filterOption: false, onSearch: setKeyword }}
          value={people}
          onChange={(v: string[]) => {
            setKnown((k) => ({ ...k, ...Object.fromEntries(selectOptions.filter((o) => v.includes(o.value)).map((o) => [o.value, o.label])) }));
            setPeople(v.slice(0, 50));
          }}
          options={selectOptions}
          loading={options.isFetching}
          placeholder="输入姓名或登录名查找，可选多人"
          style={{ width: '100%', maxWidth: 640 }}
          aria-label="选择人员"
        />
      </Card>
      <Card title="证书与职称" size="small" extra={<Typography.Text type="secondary">已选 {ids.certificateIds.length + ids.titleIds.length} 项</Typography.Text>}>
        <Table<Item>
          rowKey="key"
          size="small"
          loading={parts.some((p) => p.isLoading)}
          pagination={false}
          dataSource={items}
          locale={{ emptyText: people.length ? '所选人员没有证书或职称' : '请先选择人员' }}
          rowSelection={{
            selectedRowKeys: items.filter((i) => !unticked.has(i.key)).map((i) => i.key),
            onChange: (keys) => setUnticked(new Set(items.map((i) => i.key).filter((k) => !keys.includes(k)))),
          }}
          columns={[
            { title: '姓名', dataIndex: 'holderName', width: 100 },
            { title: '类别', dataIndex: 'kind', width: 80, render: (k: string) => (k === 'title' ? '职称' : '资格证书') },
            { title: '证书', dataIndex: 'name', ellipsis: true },
            { title: '级别', dataIndex: 'level', width: 80 },
            { title: '证书编号', dataIndex: 'certNo', width: 160 },
            { title: '有效期至', dataIndex: 'validTo', width: 110, render: (v: string | null, r) => (r.kind === 'title' ? '—' : (v ?? '长期')) },
          ]}
        />
      </Card>
      <CertificateExportCard certificateIds={ids.certificateIds} titleIds={ids.titleIds} defaultTitle="人员证书" />
    </Space>
  );
}
