/** Small pieces the system screens share: department picker, role picker, status and role tags, the one-time password notice. */
import { CopyOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Select, Space, Tag, TreeSelect, Typography, type TreeSelectProps } from 'antd';
import { ROLES, roleName, type DeptNode } from '@zhyy/shared';
import { systemApi } from '../../api/system';
import { feedback } from '../../ui/feedback';

export const DEPT_TREE_KEY = ['system', 'dept-tree'] as const;
export const useDeptTree = () => useQuery({ queryKey: DEPT_TREE_KEY, queryFn: systemApi.deptTree, staleTime: 30_000 });

type TreeData = NonNullable<TreeSelectProps['treeData']>;
function toTreeData(nodes: DeptNode[], disabledId?: string, parentDisabled = false): TreeData {
  return nodes.map((n) => {
    const disabled = parentDisabled || n.id === disabledId;
    return { value: n.id, title: n.name, disabled, children: toTreeData(n.children, disabledId, disabled) };
  });
}

/** A department picker; `exclude` disables a department and everything below it (moving). */
export function DeptSelect(props: { value?: string | null; onChange?: (v: string | undefined) => void; exclude?: string; placeholder?: string; allowClear?: boolean; style?: React.CSSProperties }) {
  const tree = useDeptTree();
  return (
    <TreeSelect
      value={props.value ?? undefined}
      onChange={(v) => props.onChange?.(v ?? undefined)}
      treeData={toTreeData(tree.data ?? [], props.exclude)}
      loading={tree.isLoading}
      treeDefaultExpandAll
      showSearch={{ treeNodeFilterProp: 'title' }}
      allowClear={props.allowClear}
      placeholder={props.placeholder ?? '选择部门'}
      style={props.style ?? { width: 220 }}
    />
  );
}

export const ROLE_OPTIONS = ROLES.map((r) => ({ value: r.code, label: `${r.code} ${r.name}` }));

export function RoleSelect(props: { value?: string | string[]; onChange?: (v: string | string[]) => void; multiple?: boolean; style?: React.CSSProperties; placeholder?: string; disabledCodes?: string[] }) {
  return (
    <Select<string | string[]>
      mode={props.multiple ? 'multiple' : undefined}
      value={props.value}
      onChange={props.onChange}
      options={props.disabledCodes?.length ? ROLE_OPTIONS.map((o) => ({ ...o, disabled: props.disabledCodes!.includes(o.value) })) : ROLE_OPTIONS}
      allowClear
      showSearch={{ optionFilterProp: 'label' }}
      placeholder={props.placeholder ?? '选择角色'}
      style={props.style ?? { width: 180 }}
    />
  );
}

export function StatusTag({ status }: { status: number }) {
  return status === 1 ? <Tag color="green">启用</Tag> : <Tag color="default">停用</Tag>;
}

export function RoleTags({ roles }: { roles: string[] }) {
  if (!roles.length) return <Typography.Text type="secondary">无</Typography.Text>;
  return (
    <Space size={[0, 4]} wrap>
      {roles.map((r) => (
        <Tag key={r} color={r === '1' || r === 'admin' ? 'red' : 'blue'}>
          {roleName(r)}
        </Tag>
      ))}
    </Space>
  );
}

/** The initial password, shown once: the administrator hands it over; it is never shown again. */
export function InitialPasswordNotice({ loginName, password }: { loginName: string; password: string }) {
  const copy = () => {
    void navigator.clipboard?.writeText(password).then(
      () => feedback().message.success('已复制'),
      () => feedback().message.warning('复制失败，请手动抄写'),
    );
  };
  return (
    <Space orientation="vertical" style={{ width: '100%' }} data-testid="initial-password-notice">
      <Alert type="warning" showIcon title="初始密码只显示这一次，请立即转交用户；用户首次登录时必须修改。" />
      <Typography.Paragraph style={{ marginBottom: 0 }}>
        登录名：<Typography.Text strong>{loginName}</Typography.Text>
      </Typography.Paragraph>
      <Space>
        初始密码：
        <Typography.Text code strong style={{ fontSize: 18 }} data-testid="initial-password">
          {password}
        </Typography.Text>
        <Button size="small" icon={<CopyOutlined />} onClick={copy}>
          复制
        </Button>
      </Space>
    </Space>
  );
}

export function showInitialPassword(title: string, loginName: string, password: string): void {
  feedback().modal.info({ title, width: 460, content: <InitialPasswordNotice loginName={loginName} password={password} />, okText: '我已记下' });
}
