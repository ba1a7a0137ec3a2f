/**
 * 资格证书: the certificates with their state today (expired red, within 90 days orange) — kind, level, state,
 * holder, expiring within N days — server paging, streamed Excel export; add, modify, delete (after a
 * confirmation). Opened with ?state=expiring, ?state=renewable or ?within=90 from 证书汇总 and the dashboard
 * card. A certificate in the renewal window of its kind carries 可办理延期 under its state.
 */
import { PlusOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { Button, Checkbox, Form, Input, InputNumber, Popconfirm, Select, Space, type TableColumnsType } from 'antd';
import { useNavigate, useSearchParams } from 'react-router';
import type { CertificateRow, CertStateFilter } from '@zhyy/shared';
import { certificateApi } from '../../../api/tender-people';
import { ListPage } from '../../../components/ListPage';
import { feedback } from '../../../ui/feedback';
import { CERT_STATE_OPTIONS, CertStateCell, compact, DaysLeft, kindOptions, PEOPLE_KEY, PEOPLE_PATHS, useCertKinds } from './common';

interface FilterValues {
  keyword?: string;
  kindId?: string;
  level?: string;
  state?: CertStateFilter;
  expiringWithin?: number | null;
  includeDisabled?: boolean;
}

export function toCertQuery(v: FilterValues): Record<string, unknown> {
  return compact({ keyword: v.keyword?.trim(), kindId: v.kindId, level: v.level, state: v.state, expiringWithin: v.expiringWithin ?? undefined, includeDisabled: v.includeDisabled || undefined });
}

export default function CertificateListPage() {
  const navigate = useNavigate();
  const qc = useQueryClient();
  const [search] = useSearchParams();
  const initial: FilterValues = compact({
    state: (CERT_STATE_OPTIONS.find((o) => o.value === search.get('state'))?.value),
    expiringWithin: search.get('within') ? Number(search.get('within')) : undefined,
    kindId: search.get('kindId') ?? undefined,
  });
  const [form] = Form.useForm<FilterValues>();
  const kinds = useCertKinds();
  const kindId = Form.useWatch('kindId', form);
  const levels = kinds.data?.find((k) => k.id === kindId)?.levels ?? [];
  const remove = async (r: CertificateRow) => {
    try {
      await certificateApi.remove(r.id);
      void feedback().message.success('已删除');
      void qc.invalidateQueries({ queryKey: PEOPLE_KEY });
    } catch {
      // Shown by the API client.
    }
  };
  const columns: TableColumnsType<CertificateRow> = [
    { title: '持证人', key: 'holder', width: 90, fixed: 'left', render: (_, r) => <a onClick={() => navigate(PEOPLE_PATHS.personnelDetail(r.userId))}>{r.holderName}</a> },
    { title: '证书种类', dataIndex: 'kindName', key: 'kindName', width: 172, ellipsis: true },
    { title: '级别', dataIndex: 'level', key: 'level', width: 60 },
    { title: '专业', dataIndex: 'speciality', key: 'speciality', width: 132, ellipsis: true },
    { title: '证书编号', dataIndex: 'certNo', key: 'certNo', width: 180, ellipsis: true },
    { title: '有效期至', key: 'validTo', width: 100, render: (_, r) => r.validTo ?? '长期' },
    { title: '状态', key: 'state', width: 170, render: (_, r) => <CertStateCell cert={r} /> },
    { title: '剩余', key: 'daysLeft', width: 100, render: (_, r) => <DaysLeft cert={r} /> },
    { title: '部门', dataIndex: 'deptName', key: 'deptName', width: 110, ellipsis: true },
    { title: '有效期起', dataIndex: 'validFrom', key: 'validFrom', width: 100 },
    { title: '发证机关', dataIndex: 'issuer', key: 'issuer', width: 120, ellipsis: true },
    { title: '注册单位', dataIndex: 'company', key: 'company', width: 120, ellipsis: true },
    {
      title: '操作', key: 'actions', width: 120, fixed: 'right',
      render: (_, r) => (
        <Space size={0}>
          <Button type="link" size="small" onClick={() => navigate(PEOPLE_PATHS.certificateModify(r.id))} data-testid={`cert-edit-${r.id}`}>修改</Button>
          <Popconfirm title={`删除 ${r.holderName} 的${r.kindName}（${r.certNo}）？`} okText="删除" okButtonProps={{ danger: true }} cancelText="取消" onConfirm={() => remove(r)}>
            <Button type="link" size="small" danger data-testid={`cert-delete-${r.id}`}>删除</Button>
          </Popconfirm>
        </Space>
      ),
    },
  ];
  return (
    <ListPage<CertificateRow>
      testId="certificate-list"
      queryKey={[...PEOPLE_KEY, 'certificates']}
      fetch={(p) => certificateApi.list(p)}
      columns={columns}
      rowKey="id"
      form={form}
      initialFilters={initial as Record<string, unknown>}
      resetClearsInitial
      toRequest={(v) => toCertQuery(v as FilterValues)}
      emptyText="没有资格证书"
      unit="本"
      filters={
        <>
          <Form.Item name="keyword" label="关键字"><Input allowClear placeholder="姓名或证书编号" maxLength={50} style={{ width: 150 }} /></Form.Item>
          <Form.Item name="kindId" label="证书种类"><Select allowClear placeholder="全部" options={kindOptions(kinds.data)} style={{ width: 170 }} onChange={() => form.setFieldValue('level', undefined)} /></Form.Item>
          <Form.Item name="level" label="级别"><Select allowClear placeholder="全部" disabled={!levels.length} options={levels.map((l) => ({ value: l, label: l }))} style={{ width: 90 }} /></Form.Item>
          <Form.Item name="state" label="状态"><Select allowClear placeholder="全部" options={CERT_STATE_OPTIONS} style={{ width: 120 }} /></Form.Item>
          <Form.Item name="expiringWithin" label="到期天数"><InputNumber min={0} max={3650} precision={0} placeholder="N天内" style={{ width: 90 }} /></Form.Item>
          <Form.Item name="includeDisabled" valuePropName="checked"><Checkbox data-testid="cert-include-disabled">含停用人员</Checkbox></Form.Item>
        </>
      }
      actions={<Button type="primary" icon={<PlusOutlined />} onClick={() => navigate(PEOPLE_PATHS.certificateAdd)} data-testid="cert-new">新增资格证书</Button>}
      export={{ fileName: '资格证书', run: (f) => certificateApi.export(f) }}
    />
  );
}
