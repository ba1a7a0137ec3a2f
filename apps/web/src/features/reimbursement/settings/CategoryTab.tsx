/** 费用类别: list, add, edit, enable/disable, delete (a category used by bills can only be disabled). */
import { PlusOutlined } from '@ant-design/icons';
import { Button, Form, Input, InputNumber, Modal, Popconfirm, Select, Space, Switch, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { REIMB_TAX_RATES, ReimbCategoryBody, ReimbTravelKind, type ReimbCategoryView, type ReimbSettingView } from '@zhyy/shared';
import { reimbSettingApi } from '../../../api/reimbursementSettings';
import { zodRule } from '../../../components/zodRule';
import { useSettingChange } from './settingChange';

export const rateLabel = (r: string) => `${Math.round(Number(r) * 100)}%`;
type Editing = { mode: 'add' | 'edit'; row?: ReimbCategoryView } | null;

export function CategoryTab({ s }: { s: ReimbSettingView }) {
  const change = useSettingChange();
  const [editing, setEditing] = useState<Editing>(null);
  const [form] = Form.useForm<ReimbCategoryBody>();
  const [saving, setSaving] = useState(false);
  const open = (e: Editing) => {
    setEditing(e);
    form.setFieldsValue(e?.row ? ({ ...e.row } as unknown as ReimbCategoryBody) : { code: '', name: '', travelKind: '', subjectCode: '', subjectName: '', defaultTaxRate: '0.06', sort: (s.categories.at(-1)?.sort ?? 0) + 10 });
  };
  const submit = async (v: ReimbCategoryBody) => {
    setSaving(true);
    const body = { ...v, sort: v.sort ?? 0 };
    const done = await change(() => (editing?.mode === 'edit' ? reimbSettingApi.editCategory(body) : reimbSettingApi.addCategory(body)));
    setSaving(false);
    if (done) setEditing(null);
  };
  return (
    <>
      <Space style={{ marginBottom: 12 }}>
        <Button type="primary" icon={<PlusOutlined />} onClick={() => open({ mode: 'add' })}>新增类别</Button>
        <Typography.Text type="secondary">已被报销单使用的类别不能删除，只能停用；停用后不能再选用。</Typography.Text>
      </Space>
      <Table<ReimbCategoryView>
        size="small" rowKey="code" dataSource={s.categories} pagination={false}
        columns={[
          { title: '编码', dataIndex: 'code', width: 90 },
          { title: '类别名称', dataIndex: 'name', width: 140 },
          { title: '差旅标准', dataIndex: 'travelKind', width: 100, render: (v: string) => (v ? ReimbTravelKind.label(v) : '—') },
          { title: '会计科目', render: (_, r) => `${r.subjectCode} ${r.subjectName}` },
          { title: '默认税率', dataIndex: 'defaultTaxRate', width: 90, render: rateLabel },
          { title: '已用明细', dataIndex: 'usedCount', width: 90, align: 'right' },
          { title: '状态', dataIndex: 'enabled', width: 90, render: (v: boolean, r) => <Switch size="small" checked={v} checkedChildren="启用" unCheckedChildren="停用" aria-label={`启用${r.name}`} onChange={(on) => void change(() => reimbSettingApi.enableCategory(r.code, on))} /> },
          {
            title: '操作', width: 130, render: (_, r) => (
              <Space>
                <Button type="link" size="small" onClick={() => open({ mode: 'edit', row: r })}>编辑</Button>
                {r.usedCount > 0 ? <Tag>已使用</Tag> : (
                  <Popconfirm title={`删除费用类别「${r.name}」？`} okText="删除" cancelText="取消" onConfirm={() => change(() => reimbSettingApi.deleteCategory(r.code))}>
                    <Button type="link" size="small" danger>删除</Button>
                  </Popconfirm>
                )}
              </Space>
            ),
          },
        ]}
      />
      <Modal open={editing !== null} title={editing?.mode === 'edit' ? '编辑费用类别' : '新增费用类别'} okText="保存" cancelText="取消" confirmLoading={saving} onOk={() => form.submit()} onCancel={() => setEditing(null)} destroyOnHidden forceRender>
        <Form<ReimbCategoryBody> form={form} layout="vertical" name="reimb-category" onFinish={(v) => void submit(v)}>
          <Form.Item name="code" label="类别编码" rules={[{ required: true, message: '请填写类别编码' }, zodRule(ReimbCategoryBody.shape.code, '类别编码')]}><Input maxLength={20} disabled={editing?.mode === 'edit'} /></Form.Item>
          <Form.Item name="name" label="类别名称" rules={[{ required: true, message: '请填写类别名称' }, zodRule(ReimbCategoryBody.shape.name, '类别名称')]}><Input maxLength={30} /></Form.Item>
          <Form.Item name="travelKind" label="适用差旅标准"><Select options={ReimbTravelKind.options.map((o) => ({ value: o.value, label: o.label }))} /></Form.Item>
          <Space.Compact block>
            <Form.Item name="subjectCode" label="科目编码" style={{ width: '40%' }} rules={[{ required: true, message: '请填写科目编码' }, zodRule(ReimbCategoryBody.shape.subjectCode, '科目编码')]}><Input maxLength={20} placeholder="6602.01" /></Form.Item>
            <Form.Item name="subjectName" label="科目名称" style={{ width: '60%' }} rules={[{ required: true, message: '请填写科目名称' }, zodRule(ReimbCategoryBody.shape.subjectName, '科目名称')]}><Input maxLength={50} placeholder="管理费用-差旅费" /></Form.Item>
          </Space.Compact>
          <Space.Compact block>
            <Form.Item name="defaultTaxRate" label="默认税率" style={{ width: '50%' }}><Select options={REIMB_TAX_RATES.map((r) => ({ value: r, label: rateLabel(r) }))} /></Form.Item>
            <Form.Item name="sort" label="排序" style={{ width: '50%' }}><InputNumber min={0} max={9999} style={{ width: '100%' }} /></Form.Item>
          </Space.Compact>
        </Form>
      </Modal>
    </>
  );
}
