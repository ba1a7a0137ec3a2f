/** 新增购方 / 编辑购方 (buyeradd, buyeredit/:id): the tax number is checked with GB 32100 as typed. */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Card, Form, Input, Result, Select, Skeleton, Space } from 'antd';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { BuyerSaveBody, EMPTY_ID, InvoiceKind } from '@zhyy/shared';
import { invoiceApi } from '../../../api/invoice';
import { zodRule } from '../../../components/zodRule';
import { useView } from '../../../router/view';
import { feedback } from '../../../ui/feedback';
import { INVOICE_KEY } from '../widgets';

const f = BuyerSaveBody.shape;

export default function BuyerEdit() {
  const { params } = useView();
  const id = params.id ?? EMPTY_ID;
  const isNew = id === EMPTY_ID;
  const navigate = useNavigate();
  const qc = useQueryClient();
  const [saving, setSaving] = useState(false);
  const q = useQuery({ queryKey: [...INVOICE_KEY, 'buyer', id], queryFn: () => invoiceApi.buyer(id), enabled: !isNew });
  if (!isNew && q.isLoading) return <Card><Skeleton active /></Card>;
  if (!isNew && !q.data) return <Card><Result status="warning" title="购方不存在或已删除" extra={<Button onClick={() => navigate('/invoice/invoicesetting/buyerlist')}>返回购方列表</Button>} /></Card>;
  const submit = async (v: Record<string, unknown>) => {
    setSaving(true);
    try {
      const body = BuyerSaveBody.parse({ ...v, id, taxNo: v.taxNo ?? '', address: v.address ?? '', phone: v.phone ?? '', bank: v.bank ?? '', account: v.account ?? '', email: v.email ?? '', mobile: v.mobile ?? '', remark: v.remark ?? '' });
      const a = await invoiceApi.saveBuyer(body);
      void feedback().message.success('保存成功');
      void qc.invalidateQueries({ queryKey: INVOICE_KEY });
      navigate(`/invoice/invoicesetting/buyerdetail/${a.r!.id}`);
    } catch { /* shown by the request layer or beside the fields */ } finally {
      setSaving(false);
    }
  };
  return (
    <Card title={isNew ? '新增购方' : `编辑购方：${q.data?.name ?? ''}`} data-testid="buyer-edit">
      <Form name="buyer-edit" layout="horizontal" labelCol={{ flex: '110px' }} style={{ maxWidth: 640 }} initialValues={q.data ?? { defaultKind: InvoiceKind.bs }} onFinish={(v) => void submit(v)}>
        <Form.Item name="name" label="购方名称" rules={[{ required: true, message: '请填写购方名称' }, { max: 100, message: '不能超过100个字符' }]}><Input maxLength={100} /></Form.Item>
        <Form.Item name="taxNo" label="税号" extra="统一社会信用代码（18位）自动校验；旧税号15至20位" rules={[zodRule(f.taxNo, '税号')]}><Input maxLength={20} /></Form.Item>
        <Form.Item name="defaultKind" label="默认发票种类"><Select options={InvoiceKind.options.map((o) => ({ value: o.value, label: o.label }))} /></Form.Item>
        <Form.Item name="address" label="地址"><Input maxLength={100} /></Form.Item>
        <Form.Item name="phone" label="电话" rules={[zodRule(f.phone, '电话')]}><Input maxLength={30} /></Form.Item>
        <Form.Item name="bank" label="开户行"><Input maxLength={100} /></Form.Item>
        <Form.Item name="account" label="账号" rules={[zodRule(f.account, '账号')]}><Input maxLength={50} /></Form.Item>
        <Form.Item name="email" label="交付邮箱" rules={[zodRule(f.email, '交付邮箱')]}><Input maxLength={100} /></Form.Item>
        <Form.Item name="mobile" label="交付手机" rules={[zodRule(f.mobile, '交付手机')]}><Input maxLength={20} /></Form.Item>
        <Form.Item name="remark" label="备注"><Input.TextArea maxLength={200} rows={2} /></Form.Item>
        <Form.Item label=" " colon={false}>
          <Space><Button type="primary" htmlType="submit" loading={saving}>保存</Button><Button onClick={() => navigate('/invoice/invoicesetting/buyerlist')}>取消</Button></Space>
        </Form.Item>
      </Form>
    </Card>
  );
}
