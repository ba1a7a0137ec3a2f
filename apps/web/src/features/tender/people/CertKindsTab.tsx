/**
 * 证书种类 (a tab of 投标设置, roles 1 and 6): the certificate kinds — name, levels in order, whether they have
 * specialities, default validity in years (empty: open-ended), 延期办理期 (the months before the end day from
 * which a certificate may be renewed; empty: none), sort, number of certificates; add, modify,
 * delete (after a confirmation; a kind with certificates cannot be deleted, a level in use cannot be dropped).
 */
import { PlusOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Checkbox, Form, Input, InputNumber, Modal, Popconfirm, Select, Space, Table, Tag, type TableColumnsType } from 'antd';
import { useState } from 'react';
import type { CertKind, CertKindBody } from '@zhyy/shared';
import { certKindApi } from '../../../api/tender-people';
import { tableLocale } from '../../../components/listTable';
import { feedback } from '../../../ui/feedback';
import { PEOPLE_KEY } from './common';

interface KindFormValues { name?: string; levels?: string[]; hasSpeciality?: boolean; validYears?: number | null; renewMonths?: number | null; sort?: number | null }

export function toKindBody(v: KindFormValues, id?: string): CertKindBody {
  return { ...(id ? { id } : {}), name: v.name?.trim() ?? '', levels: (v.levels ?? []).map((l) => l.trim()).filter(Boolean), hasSpeciality: !!v.hasSpeciality, validYears: v.validYears ?? null, renewMonths: v.renewMonths ?? null, sort: v.sort ?? 0 };
}

export function CertKindsTab() {
  const qc = useQueryClient();
  const q = useQuery({ queryKey: [...PEOPLE_KEY, 'kinds'], queryFn: () => certKindApi.list() });
  const [editing, setEditing] = useState<CertKind | 'new' | null>(null);
  const [form] = Form.useForm<KindFormValues>();
  const [error, setError] = useState('');
  const [saving, setSaving] = useState(false);
  const reload = () => void qc.invalidateQueries({ queryKey: PEOPLE_KEY });
  const open = (k: CertKind | 'new') => {
    setError('');
    form.setFieldsValue(k === 'new' ? { name: '', levels: [], hasSpeciality: false, validYears: null, renewMonths: null, sort: ((q.data?.length ?? 0) + 1) * 10 } : { name: k.name, levels: k.levels, hasSpeciality: k.hasSpeciality, validYears: k.validYears, renewMonths: k.renewMonths, sort: k.sort });
    setEditing(k);
  };
  const save = async () => {
    // A field refused is shown on the field; nothing is sent.
    const v = await form.validateFields().catch(() => null);
    if (!v) return;
    setSaving(true);
    setError('');
    try {
      const a = await certKindApi.save(toKindBody(v, editing && editing !== 'new' ? editing.id : undefined), { silent: true });
      void feedback().message.success(a.message || '保存成功');
      setEditing(null);
      reload();
    } catch (e) {
      setError(e instanceof Error ? e.message : '保存失败');
    } finally {
      setSaving(false);
    }
  };
  const remove = async (k: CertKind) => {
    try {
      await certKindApi.remove(k.id);
      void feedback().message.success('已删除');
      reload();
    } catch {
      // Shown by the API client.
    }
  };
  const columns: TableColumnsType<CertKind> = [
    { title: '证书种类', dataIndex: 'name', key: 'name', width: 180 },
    { title: '级别', key: 'levels', width: 160, render: (_, k) => (k.levels.length ? k.levels.map((l) => <Tag key={l}>{l}</Tag>) : '不分级') },
    { title: '区分专业', key: 'spec', width: 90, render: (_, k) => (k.hasSpeciality ? '是' : '否') },
    { title: '默认有效年限', key: 'years', width: 110, render: (_, k) => (k.validYears ? `${k.validYears} 年` : '长期') },
    { title: '延期办理期', key: 'renew', width: 100, render: (_, k) => (k.renewMonths ? `到期前 ${k.renewMonths} 个月` : '—') },
    { title: '排序', dataIndex: 'sort', key: 'sort', width: 70, align: 'right' },
    { title: '证书数', dataIndex: 'certCount', key: 'certCount', width: 80, align: 'right' },
    {
      title: '操作', key: 'a', width: 120,
      render: (_, k) => (
        <Space size={0}>
          <Button type="link" size="small" onClick={() => open(k)} data-testid={`kind-edit-${k.id}`}>修改</Button>
          <Popconfirm title={`删除证书种类「${k.name}」？`} okText="删除" okButtonProps={{ danger: true }} cancelText="取消" onConfirm={() => remove(k)} disabled={k.certCount > 0}>
            <Button type="link" size="small" danger disabled={k.certCount > 0} title={k.certCount ? '已有证书，不能删除' : undefined}>删除</Button>
          </Popconfirm>
        </Space>
      ),
    },
  ];
  return (
    <div data-testid="cert-kinds-tab">
      <Space style={{ marginBottom: 12 }}>
        <Button type="primary" icon={<PlusOutlined />} onClick={() => open('new')} data-testid="kind-new">新增证书种类</Button>
      </Space>
      <Table<CertKind> rowKey="id" size="small" columns={columns} dataSource={q.data ?? []} loading={q.isFetching} pagination={false} locale={tableLocale(q.isError, '还没有证书种类')} />
      <Modal open={!!editing} title={editing === 'new' ? '新增证书种类' : '修改证书种类'} onCancel={() => setEditing(null)} onOk={() => void save()} confirmLoading={saving} okText="保存" cancelText="取消" destroyOnHidden forceRender>
        <Form form={form} layout="horizontal" labelCol={{ flex: '130px' }} name="tender-cert-kind">
          <Form.Item name="name" label="名称" rules={[{ required: true, whitespace: true, message: '请填写证书种类名称' }]}><Input maxLength={30} /></Form.Item>
          <Form.Item name="levels" label="级别" extra="按顺序输入，回车添加；不分级留空"><Select mode="tags" open={false} tokenSeparators={[',', '，', '、']} placeholder="如 A、B、C" /></Form.Item>
          <Form.Item name="hasSpeciality" label="区分专业" valuePropName="checked"><Checkbox /></Form.Item>
          <Form.Item name="validYears" label="默认有效年限" extra="留空为长期有效"><InputNumber min={1} max={50} precision={0} suffix="年" style={{ width: 120 }} /></Form.Item>
          <Form.Item
            name="renewMonths"
            label="延期办理期（月）"
            extra="到期前几个月起可办理延期，如三类人员证书为3；留空为不设"
            dependencies={['validYears']}
            rules={[({ getFieldValue }) => ({ validator: async (_r, v: number | null) => { const y = getFieldValue('validYears') as number | null; if (v && y && v > y * 12) throw new Error('延期办理期不能超过默认有效年限'); } })]}
          >
            <InputNumber min={1} max={24} precision={0} suffix="个月" style={{ width: 120 }} data-testid="kind-renew" />
          </Form.Item>
          <Form.Item name="sort" label="排序"><InputNumber min={0} max={9999} precision={0} /></Form.Item>
        </Form>
        {error ? <Alert type="error" showIcon title={error} data-testid="kind-error" /> : null}
      </Modal>
    </div>
  );
}
