/**
 * 无权访问: shown in the main area, inside the layout (navbar, menus, tag bar stay), when the user opens a
 * page of the route table that their roles may not open (issue 31; unknown paths still go to /404).
 */
import { Button, Result } from 'antd';
import { useNavigate } from 'react-router';

export default function Forbidden({ title }: { title: string }) {
  const navigate = useNavigate();
  return (
    <Result
      status="403"
      title="无权访问"
      subTitle={`您的角色不能打开「${title}」页面。如需使用，请联系系统管理员分配角色。`}
      extra={
        <Button type="primary" onClick={() => navigate('/', { replace: true })}>
          返回首页
        </Button>
      }
      data-testid="forbidden"
    />
  );
}
