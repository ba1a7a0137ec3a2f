/** 重新交付: send an issued invoice to the buyer by email or SMS through the tax service. */
import { SendOutlined } from '@ant-design/icons';
import { Button, Form, Input, Modal } from 'antd';
import { useState } from 'react';
import { SendInvoiceBody } from '@zhyy/shared';
import { zodRule } from '../../../components/zodRule';
import { ledgerApi } from '../../../api/invoiceLedger';
import { feedback } from '../../../ui/feedback';

export function SendDialog({ id, email, mobile, disabled }: { id: string; email: string; mobile: string; disabled?: boolean }) {
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const [form] = Form.useForm<{ email: string; mobile: string }>();
  const submit = async (v: { email?: string; mobile?: string }) => {
    setBusy(true);
    try {
      const a = await ledgerApi.send({ id, email: v.email?.trim() ?? '', mobile: v.mobile?.trim() ?? '' });
      void feedback().message.success(a.message ?? '已交付');
      setOpen(false);
    } catch {
      // The request layer shows the refusal.
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <Button icon={<SendOutlined />} disabled={disabled} onClick={() => { form.setFieldsValue({ email, mobile }); setOpen(true); }} data-testid="send-button">
        重新交付
      </Button>
      <Modal open={open} title="重新交付发票给购方" okText="交付" cancelText="取消" confirmLoading={busy} onOk={() => form.submit()} onCancel={() => setOpen(false)} destroyOnHidden>
        <Form form={form} layout="vertical" onFinish={(v) => void submit(v)} preserve={false}>
          <Form.Item name="email" label="邮箱" rules={[zodRule(SendInvoiceBody.shape.email, '邮箱')]}>
            <Input maxLength={100} placeholder="购方收票邮箱" />
          </Form.Item>
          <Form.Item
            name="mobile" label="手机号"
            rules={[
              zodRule(SendInvoiceBody.shape.mobile, '手机号'),
              ({ getFieldValue }) => ({ validator: async (_, v) => { if (!v && !getFieldValue('email')) throw new Error('请填写邮箱或手机号'); } }),
            ]}
          >
            <Input maxLength={11} placeholder="购方收票手机号" />
          </Form.Item>
        </Form>
      </Modal>
    </>
  );
}
