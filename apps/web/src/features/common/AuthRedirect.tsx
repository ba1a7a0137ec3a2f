import { Button, Result, Spin } from 'antd';
import { useEffect } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { useSession } from '../../stores/session';
import { useTagsView } from '../../stores/tagsView';

/** /auth-redirect?token=...: a token handed over by another system is stored, then on to '/'. */
export default function AuthRedirect() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const token = params.get('token')?.trim() ?? '';
  useEffect(() => {
    if (!token) return;
    const session = useSession.getState();
    // A different user may be arriving: nothing of the previous session stays.
    session.resetToken();
    useTagsView.getState().reset();
    session.setToken(token);
    void navigate('/', { replace: true });
  }, [token, navigate]);
  if (token) return <Spin fullscreen description="正在登录…" />;
  return (
    <Result
      status="warning"
      title="登录跳转链接无效"
      subTitle="链接中缺少登录凭证，请从原系统重新进入，或直接登录。"
      extra={
        <Button type="primary" onClick={() => navigate('/login', { replace: true })}>
          前往登录
        </Button>
      }
    />
  );
}
