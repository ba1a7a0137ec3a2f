import { LockOutlined, UserOutlined } from '@ant-design/icons';
import { Button, Card, Form, Input, Typography } from 'antd';
import { useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { PRODUCT_TITLE } from '@zhyy/shared';
import { login } from '../../api/account';
import { safeRedirect } from '../../router/guard';
import { useSession } from '../../stores/session';
import './login.css';

interface LoginForm {
  name: string;
  password: string;
}

/** The sign-in page; after success the redirect query or '/' (where the landing rules apply). */
export default function Login() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const [loading, setLoading] = useState(false);

  async function submit(values: LoginForm) {
    setLoading(true);
    try {
      const r = await login({ name: values.name.trim(), password: values.password });
      const session = useSession.getState();
      session.setToken(r.token);
      if (r.needChangePassword) session.raisePasswordFlag();
      await navigate(safeRedirect(params.get('redirect')) ?? '/', { replace: true });
    } catch {
      // The request layer showed the reason (用户名或密码错误, the lock message, ...).
    } finally {
      setLoading(false);
    }
  }

  return (
    <div className="login-page">
      <Card className="login-card" variant="borderless">
        <div className="login-brand">
          <img src="/logo.svg" alt="" width={44} height={44} />
          <Typography.Title level={3} className="login-title">
            {PRODUCT_TITLE}
          </Typography.Title>
          <Typography.Text type="secondary">请使用工号或用户名登录</Typography.Text>
        </div>
        <Form<LoginForm> size="large" layout="vertical" onFinish={submit} autoComplete="on" requiredMark={false} aria-label="登录表单">
          <Form.Item label="用户名" name="name" rules={[{ required: true, whitespace: true, message: '请输入用户名' }]}>
            <Input prefix={<UserOutlined />} autoComplete="username" maxLength={64} autoFocus />
          </Form.Item>
          <Form.Item label="密码" name="password" rules={[{ required: true, message: '请输入密码' }]}>
            <Input.Password prefix={<LockOutlined />} autoComplete="current-password" maxLength={128} />
          </Form.Item>
          <Button type="primary" htmlType="submit" block loading={loading}>
            登录
          </Button>
        </Form>
      </Card>
      <div className="login-footer">© {new Date().getFullYear()} {PRODUCT_TITLE}</div>
    </div>
  );
}
