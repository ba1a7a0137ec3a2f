/** 公告管理 (the drawer): publish, edit, withdraw and republish notices with their column. Loaded when opened. */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Drawer, Form, Input, Modal, Popconfirm, Select, Space, Table, Tag } from 'antd';
import { useState } from 'react';
import { NoticeSaveBody, type NoticeDetail } from '@zhyy/shared';
import { emitWorkflowRefresh } from '../../../live/events';
import { feedback } from '../../../ui/feedback';
import { wfApi } from '../../../api/workflow';
import { formatTime, settled } from '../../common/workflowFormat';

const COLUMNS = ['行政通知', '财务通知', '系统公告', '安全生产', '人事通知'];
const rule = (key: 'title' | 'infoColumnName' | 'content') => ({
  validator: async (_: unknown, v: unknown) => {
    const r = NoticeSaveBody.shape[key].safeParse(v ?? '');
    if (!r.success) throw new Error(r.error.issues[0]?.message ?? '输入不正确');
  },
});

export default function NoticeManager({ onClose }: { onClose: () => void }) {
  const qc = useQueryClient();
  const [page, setPage] = useState(1);
  const [editing, setEditing] = useState<Partial<NoticeDetail> | null>(null);
  const [form] = Form.useForm();
  const q = useQuery({ queryKey: ['workflow', 'notice-admin', page], queryFn: () => wfApi.notices({ pageIndex: page, pageSize: 10 }) });
  const changed = (message: string) => {
    void feedback().message.success(message);
    emitWorkflowRefresh();
    void qc.invalidateQueries({ queryKey: ['workflow'] });
  };
  const save = async () => {
    const v = await form.validateFields();
    const { message } = await wfApi.saveNotice({ id: editing?.id, title: v.title.trim(), infoColumnName: v.infoColumnName, content: v.content.trim() });
    setEditing(null);
    changed(message);
  };
  return (
    <Drawer open onClose={onClose} title="公告管理" size={760} extra={<Button type="primary" onClick={() => setEditing({})}>发布公告</Button>}>
      <Table
        rowKey="id"
        size="small"
        loading={q.isFetching}
        dataSource={q.data?.items ?? []}
        pagination={{ current: page, pageSize: 10, total: q.data?.total ?? 0, onChange: setPage }}
        columns={[
          { title: '标题', dataIndex: 'title', ellipsis: true },
          { title: '栏目', dataIndex: 'infoColumnName', width: 90 },
          { title: '状态', dataIndex: 'state', width: 80, render: (s: number) => (s === 1 ? <Tag color="green">已发布</Tag> : <Tag>已撤回</Tag>) },
          { title: '发布时间', dataIndex: 'publishedAt', width: 140, render: formatTime },
          {
            title: '操作',
            key: 'op',
            width: 140,
            render: (_: unknown, n: NoticeDetail) => (
              <Space size={0}>
                <Button type="link" size="small" onClick={() => setEditing(n)}>
                  编辑
                </Button>
                {n.state === 1 ? (
                  <Popconfirm title="撤回后所有人将看不到该公告，确定撤回？" okText="撤回" cancelText="取消" onConfirm={() => settled(async () => changed((await wfApi.withdrawNotice(n.id)).message))}>
                    <Button type="link" size="small" danger>
                      撤回
                    </Button>
                  </Popconfirm>
                ) : (
                  <Button type="link" size="small" onClick={() => void settled(async () => changed((await wfApi.publishNotice(n.id)).message))}>
                    重新发布
                  </Button>
                )}
              </Space>
            ),
          },
        ]}
      />
      <Modal open={editing !== null} title={editing?.id ? '编辑公告' : '发布公告'} onOk={() => settled(save)} onCancel={() => setEditing(null)} okText={editing?.id ? '保存' : '发布'} cancelText="取消" destroyOnHidden width={640}>
        <Form form={form} layout="vertical" preserve={false} initialValues={{ title: editing?.title, infoColumnName: editing?.infoColumnName ?? COLUMNS[0], content: editing?.content }}>
          <Form.Item name="title" label="标题" rules={[rule('title')]}>
            <Input maxLength={100} showCount />
          </Form.Item>
          <Form.Item name="infoColumnName" label="栏目" rules={[rule('infoColumnName')]}>
            <Select options={COLUMNS.map((c) => ({ value: c, label: c }))} />
          </Form.Item>
          <Form.Item name="content" label="内容" rules={[rule('content')]}>
            <Input.TextArea autoSize={{ minRows: 6, maxRows: 14 }} maxLength={5000} showCount />
          </Form.Item>
        </Form>
      </Modal>
    </Drawer>
  );
}
