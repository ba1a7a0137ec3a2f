/**
 * 审核人: every user holding an auditor role (17, 20, 21, 22) and the departments whose orders they see and
 * audit, chosen in the department tree (each department on its own: choosing a parent does not bring its
 * children). An auditor without departments sees an empty queue. Each row saves on its own.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Space, Table, Tag, TreeSelect, Typography } from 'antd';
import { useState } from 'react';
import { roleName, type CostAuditorView } from '@zhyy/shared';
import { costSettingApi } from '../../../api/cost';
import { tableLocale } from '../../../components/listTable';
import { feedback } from '../../../ui/feedback';
import { COST_KEY } from '../common';
import { deptTreeData, useCostDeptTree } from '../pickers';

export const AUDITORS_KEY = [...COST_KEY, 'auditors'] as const;

const sameSet = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((x) => b.includes(x));

export function AuditorTab() {
  const qc = useQueryClient();
  const q = useQuery({ queryKey: AUDITORS_KEY, queryFn: costSettingApi.auditors });
  const tree = useCostDeptTree();
  const [drafts, setDrafts] = useState<Record<string, string[]>>({});
  const [saving, setSaving] = useState<string | null>(null);
  const treeData = deptTreeData(tree.data ?? []);
  const valueOf = (r: CostAuditorView) => drafts[r.userId] ?? r.deptIds;
  const save = async (r: CostAuditorView) => {
    setSaving(r.userId);
    try {
      const a = await costSettingApi.saveAuditors({ userId: r.userId, deptIds: valueOf(r) });
      if (a.r) qc.setQueryData(AUDITORS_KEY, a.r);
      else void qc.invalidateQueries({ queryKey: AUDITORS_KEY });
      setDrafts(({ [r.userId]: _done, ...rest }) => rest);
      void feedback().message.success(`已保存 ${r.name} 的审核部门`);
      // The auditors' queues and badge counts depend on it.
      void qc.invalidateQueries({ queryKey: [...COST_KEY, 'to-audit'] });
    } catch {
      // Shown by the API client.
    } finally {
      setSaving(null);
    }
  };
  return (
    <Space orientation="vertical" size={12} style={{ width: '100%' }} data-testid="auditor-tab">
      <Typography.Text type="secondary">持有成本审核角色（17、20、21、22）的用户只能看到并审核所分配部门的成本单；未分配部门的审核人待审核列表为空。系统管理员（角色 1）可审核全部部门。</Typography.Text>
      {q.data && !q.data.length ? <Alert type="info" showIcon title="没有持有成本审核角色的用户：请先在用户管理中为用户分配角色 17、20、21 或 22。" /> : null}
      <Table<CostAuditorView>
        rowKey="userId"
        size="small"
        loading={q.isLoading}
        dataSource={q.data ?? []}
        pagination={false}
        locale={tableLocale(q.isError, '没有审核人')}
        columns={[
          { title: '姓名', dataIndex: 'name', width: 100 },
          { title: '登录名', dataIndex: 'loginName', width: 110 },
          { title: '所在部门', dataIndex: 'deptName', width: 130, ellipsis: true },
          { title: '角色', key: 'roles', width: 180, render: (_, r) => <Space size={[0, 4]} wrap>{r.roles.map((x) => <Tag key={x}>{roleName(x)}</Tag>)}</Space> },
          {
            title: '审核部门', key: 'depts',
            render: (_, r) => (
              <TreeSelect
                multiple
                value={valueOf(r)}
                onChange={(v: string[]) => setDrafts((d) => ({ ...d, [r.userId]: v }))}
                treeData={treeData}
                loading={tree.isLoading}
                treeDefaultExpandAll
                showSearch={{ treeNodeFilterProp: 'title' }}
                allowClear
                placeholder="未分配部门"
                maxTagCount="responsive"
                style={{ width: '100%', minWidth: 280 }}
                aria-label={`${r.name}的审核部门`}
                status={valueOf(r).length ? undefined : 'warning'}
              />
            ),
          },
          {
            title: '操作', key: 'save', width: 140,
            render: (_, r) => {
              const changed = !sameSet(valueOf(r), r.deptIds);
              return (
                <Space size={0}>
                  <Button type="link" size="small" disabled={!changed} loading={saving === r.userId} onClick={() => void save(r)} data-testid={`auditor-save-${r.loginName}`}>保存</Button>
                  {changed ? <Button type="link" size="small" onClick={() => setDrafts(({ [r.userId]: _x, ...rest }) => rest)}>恢复</Button> : null}
                </Space>
              );
            },
          },
        ]}
      />
    </Space>
  );
}
