/** 部门管理: the tree with member counts and managers; add a child, edit, delete (empty departments only). */
import { PlusOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { Button, Card, Empty, Popconfirm, Space, Table, Typography } from 'antd';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { EMPTY_ID, type DeptNode } from '@zhyy/shared';
import { systemApi } from '../../api/system';
import { feedback } from '../../ui/feedback';
import { useDeptTree } from './widgets';

type Row = Omit<DeptNode, 'children'> & { children?: Row[] };
const parentIds = (nodes: DeptNode[]): string[] => nodes.flatMap((n) => (n.children.length ? [n.id, ...parentIds(n.children)] : []));
const toRows = (nodes: DeptNode[]): Row[] => nodes.map((n) => ({ ...n, children: n.children.length ? toRows(n.children) : undefined }));

export default function DeptList() {
  const tree = useDeptTree();
  // The whole tree opens expanded (a default would apply only to the rows there at the table's first render);
  // what the user folds stays folded, and a department added later opens like the rest.
  const [collapsed, setCollapsed] = useState<ReadonlySet<string>>(() => new Set());
  const expanded = tree.data ? parentIds(tree.data).filter((id) => !collapsed.has(id)) : [];
  const navigate = useNavigate();
  const qc = useQueryClient();

  const remove = async (d: Row) => {
    await systemApi.deleteDept(d.id);
    void feedback().message.success(`已删除 ${d.name}`);
    void qc.invalidateQueries({ queryKey: ['system'] });
  };

  return (
    <Card
      title="部门管理"
      data-testid="dept-list"
      extra={
        <Button type="primary" icon={<PlusOutlined />} onClick={() => navigate(`/system/dept-edit/${EMPTY_ID}`)}>
          新增部门
        </Button>
      }
    >
      {tree.data ? (
        <Table<Row>
          rowKey="id"
          size="small"
          pagination={false}
          dataSource={toRows(tree.data)}
          expandable={{ expandedRowKeys: expanded, onExpandedRowsChange: (keys) => setCollapsed(new Set(parentIds(tree.data!).filter((id) => !keys.includes(id)))) }}
          locale={{ emptyText: <Empty description="还没有部门" /> }}
          columns={[
            { title: '部门', dataIndex: 'name' },
            { title: '负责人', dataIndex: 'managerName', width: 120, render: (v: string) => v || <Typography.Text type="secondary">未设置</Typography.Text> },
            { title: '直属人数', dataIndex: 'memberCount', width: 90, align: 'right' },
            { title: '含下级人数', dataIndex: 'totalCount', width: 100, align: 'right' },
            {
              title: '操作',
              key: 'actions',
              width: 200,
              render: (_: unknown, d) => (
                <Space size={0}>
                  <Button type="link" onClick={() => navigate(`/system/dept-edit/${EMPTY_ID}?parent=${d.id}`)}>添加下级</Button>
                  <Button type="link" onClick={() => navigate(`/system/dept-edit/${d.id}`)}>编辑</Button>
                  {d.parentId ? (
                    <Popconfirm title={`删除部门“${d.name}”？`} description="只能删除没有下级部门和用户的部门。" onConfirm={() => remove(d)}>
                      <Button type="link" danger>删除</Button>
                    </Popconfirm>
                  ) : null}
                </Space>
              ),
            },
          ]}
        />
      ) : (
        <Table loading columns={[]} dataSource={[]} />
      )}
    </Card>
  );
}
