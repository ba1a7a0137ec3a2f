/** 编辑部门 (/system/dept-edit/:id; the empty id creates one, ?parent= preselects its parent): rename, move, manager. */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Card, Form, Input, InputNumber, Result, Skeleton, Space } from 'antd';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { DeptSaveBody, EMPTY_ID, type DeptSaveInput } from '@zhyy/shared';
import { systemApi } from '../../api/system';
import { zodRule } from '../../components/zodRule';
import { useView } from '../../router/view';
import { feedback } from '../../ui/feedback';
import { UserPicker } from './UserPicker';
import { DeptSelect } from './widgets';

export default function DeptEdit() {
  const { params, search } = useView();
  const id = params.id ?? EMPTY_ID;
  const isNew = id === EMPTY_ID;
  const parentFromLink = new URLSearchParams(search).get('parent') ?? undefined;
  const navigate = useNavigate();
  const qc = useQueryClient();
  const [saving, setSaving] = useState(false);
  const detail = useQuery({ queryKey: ['system', 'dept', id], queryFn: () => systemApi.deptDetail(id), enabled: !isNew });

  if (!isNew && detail.isLoading) return <Card><Skeleton active /></Card>;
  if (!isNew && !detail.data) return <Card><Result status="warning" title="部门不存在或已被删除" extra={<Button onClick={() => navigate('/system/dept-list')}>返回部门列表</Button>} /></Card>;
  const d = detail.data;
  const isRoot = !!d && d.parentId === null;

  const submit = async (v: DeptSaveInput) => {
    setSaving(true);
    try {
      await systemApi.saveDept({ ...v, id, parentId: v.parentId ?? null, managerId: v.managerId ?? null });
      void feedback().message.success('保存成功');
      void qc.invalidateQueries({ queryKey: ['system'] });
      navigate('/system/dept-list');
    } catch {
      // The request layer shows the refusal (a cycle, a duplicate name …).
    } finally {
      setSaving(false);
    }
  };

  return (
    <Card title={isNew ? '新增部门' : `编辑部门：${d?.name ?? ''}`} data-testid="dept-edit">
      <Form<DeptSaveInput>
        name="dept-edit"
        layout="horizontal"
        labelCol={{ flex: '90px' }}
        style={{ maxWidth: 560 }}
        initialValues={d ? { name: d.name, parentId: d.parentId, managerId: d.managerId, sort: d.sort } : { parentId: parentFromLink, sort: 0 }}
        onFinish={(v) => void submit(v)}
      >
        <Form.Item name="name" label="部门名称" required rules={[{ required: true, message: '请输入部门名称' }, zodRule(DeptSaveBody.shape.name)]}>
          <Input maxLength={40} />
        </Form.Item>
        {isRoot ? null : (
          <Form.Item name="parentId" label="上级部门" required rules={[{ required: true, message: '请选择上级部门' }]} extra={isNew ? undefined : '不能移到本部门或其下级部门下面'}>
            <DeptSelect exclude={isNew ? undefined : id} style={{ width: '100%' }} />
          </Form.Item>
        )}
        <Form.Item name="managerId" label="负责人">
          <UserPicker currentLabel={d?.managerName} placeholder="输入姓名或登录名搜索" />
        </Form.Item>
        <Form.Item name="sort" label="排序" extra="同级部门按此数字从小到大排列">
          <InputNumber min={0} max={9999} precision={0} />
        </Form.Item>
        {d ? <Form.Item label="人数">直属 {d.memberCount} 人，下级部门 {d.childCount} 个</Form.Item> : null}
        <Form.Item label=" " colon={false}>
          <Space>
            <Button type="primary" htmlType="submit" loading={saving}>保存</Button>
            <Button onClick={() => navigate('/system/dept-list')}>取消</Button>
          </Space>
        </Form.Item>
      </Form>
    </Card>
  );
}
