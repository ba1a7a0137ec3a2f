/**
 * Issue 31: the session ended while the user was at work (revoked, forced offline, the 7-day end). The
 * dialog opens over the page (stores/reauth.ts): the form behind keeps what was typed; signing in
 * again (the same account) lets the call that met 50008 go through (保存草稿 saves what was typed).
 * 返回登录页 gives up: the token is cleared and the page reloads into /login, as before.
 */
import { Alert, Button, Form, Input, Modal } from 'antd';
import { useEffect, useState } from 'react';
import { PASSWORD_DIALOG_WIDTH, PASSWORD_INPUT_MAX_LENGTH } from '@zhyy/shared';
import { login } from '../api/account';
import { registerReauthHost, settleReauth, useReauth } from '../stores/reauth';
import { useSession } from '../stores/session';

interface Values {
  name: string;
  password: string;
}

export function ReauthDialog() {
  const reason = useReauth((s) => s.reason);
  const loginName = useSession((s) => s.loginName);
  const [form] = Form.useForm<Values>();
  const [busy, setBusy] = useState(false);
  useEffect(() => registerReauthHost(), []);
  useEffect(() => {
    if (reason !== null) form.setFieldsValue({ name: loginName, password: '' });
  }, [reason, loginName, form]);

  async function submit(v: Values) {
    setBusy(true);
    try {
      const r = await login({ name: v.name.trim(), password: v.password });
      const session = useSession.getState();
      session.setToken(r.token);
      if (r.needChangePassword) session.raisePasswordFlag();
      settleReauth(true);
    } catch {
      // The request layer showed why (用户名或密码错误, the lock message …); the dialog stays.
    } finally {
      setBusy(false);
    }
  }

  return (
    <Modal
      open={reason !== null}
      title="登录已失效，请重新登录"
      width={PASSWORD_DIALOG_WIDTH}
      closable={false}
      mask={{ closable: false }}
      keyboard={false}
      destroyOnHidden
      footer={[
        <Button key="leave" onClick={() => settleReauth(false)} data-testid="reauth-leave">
          返回登录页
        </Button>,
        <Button key="ok" type="primary" loading={busy} onClick={() => form.submit()} data-testid="reauth-submit">
          登录并继续
        </Button>,
      ]}
    >
      <div data-testid="reauth-dialog">
        <Alert type="warning" showIcon title={reason} description="页面上填写的内容仍然保留；重新登录后将继续刚才的操作（如保存）。" style={{ marginBottom: 16 }} />
        <Form form={form} layout="vertical" autoComplete="off" onFinish={(v) => void submit(v)} initialValues={{ name: loginName }}>
          <Form.Item label="用户名" name="name" rules={[{ required: true, whitespace: true, message: '请输入用户名' }]}>
            <Input disabled={!!loginName} aria-label="用户名" autoComplete="username" />
          </Form.Item>
          <Form.Item label="密码" name="password" rules={[{ required: true, message: '请输入密码' }]}>
            <Input.Password maxLength={PASSWORD_INPUT_MAX_LENGTH} aria-label="密码" autoComplete="current-password" autoFocus />
          </Form.Item>
        </Form>
      </div>
    </Modal>
  );
}
