/**
 * 新增职称证书 / 修改职称证书: holder, level, title name, speciality, number, issuer, issue date, remark; the
 * server's refusal (a number already used) shown in place; the scans once saved.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Card, DatePicker, Form, Input, Select, Space, Spin, Typography } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import type { TitleBody } from '@zhyy/shared';
import { titleApi } from '../../../api/tender-people';
import { RecordNotFound } from '../../../components/RecordNotFound';
import { feedback } from '../../../ui/feedback';
import { PEOPLE_KEY, PEOPLE_PATHS, PersonPicker, TITLE_LEVEL_OPTIONS } from './common';
import { PeopleScans } from './PeopleScans';

export interface TitleFormValues { userId?: string; level?: number; titleName?: string; speciality?: string; certNo?: string; issuer?: string; issueDate?: Dayjs | null; remark?: string }

export function toTitleBody(v: TitleFormValues, id?: string): TitleBody {
  return {
    ...(id ? { id } : {}),
    userId: v.userId ?? '', level: v.level ?? 0, titleName: v.titleName?.trim() ?? '', speciality: v.speciality?.trim() ?? '', certNo: v.certNo?.trim() ?? '',
    issuer: v.issuer?.trim() ?? '', issueDate: v.issueDate ? v.issueDate.format('YYYY-MM-DD') : '', remark: v.remark?.trim() ?? '',
  };
}

export default function TitleEditPage() {
  const { id } = useParams();
  const editing = !!id;
  const navigate = useNavigate();
  const qc = useQueryClient();
  const [error, setError] = useState('');
  const [saving, setSaving] = useState(false);
  const detail = useQuery({ queryKey: [...PEOPLE_KEY, 'title', id], queryFn: () => titleApi.detail(id!), enabled: editing });
  if (editing && detail.isError) return <RecordNotFound what="职称证书" error={detail.error} back={PEOPLE_PATHS.titles} backLabel="返回职称证书" />;
  if (editing && detail.isLoading) return <Spin style={{ display: 'block', margin: 48 }} />;
  const d = detail.data;
  const initial: TitleFormValues = d
    ? { userId: d.userId, level: d.level, titleName: d.titleName, speciality: d.speciality, certNo: d.certNo, issuer: d.issuer, issueDate: dayjs(d.issueDate), remark: d.remark }
    : {};
  const save = async (v: TitleFormValues) => {
    setError('');
    setSaving(true);
    try {
      const a = await titleApi.save(toTitleBody(v, id), { silent: true });
      void feedback().message.success(a.message || '保存成功');
      void qc.invalidateQueries({ queryKey: PEOPLE_KEY });
      navigate(PEOPLE_PATHS.titles);
    } catch (e) {
      setError(e instanceof Error ? e.message : '保存失败');
    } finally {
      setSaving(false);
    }
  };
  return (
    <Card title={editing ? '修改职称证书' : '新增职称证书'} data-testid="title-edit">
      <Form layout="horizontal" labelCol={{ flex: '110px' }} style={{ maxWidth: 720 }} initialValues={initial} onFinish={save} name="tender-title-edit">
        <Form.Item name="userId" label="姓名" rules={[{ required: true, message: '请选择人员' }]}><PersonPicker current={d ? { userId: d.userId, name: d.holderName } : undefined} width={320} /></Form.Item>
        <Form.Item name="level" label="职称级别" rules={[{ required: true, message: '请选择职称级别' }]}><Select options={TITLE_LEVEL_OPTIONS} style={{ width: 160 }} placeholder="请选择" data-testid="title-level" /></Form.Item>
        <Form.Item name="titleName" label="职称名称" rules={[{ required: true, whitespace: true, message: '请填写职称名称' }]}><Input maxLength={50} placeholder="如 高级工程师" style={{ width: 320 }} /></Form.Item>
        <Form.Item name="speciality" label="专业"><Input maxLength={50} style={{ width: 320 }} /></Form.Item>
        <Form.Item name="certNo" label="证书编号" rules={[{ required: true, whitespace: true, message: '请填写证书编号' }]}><Input maxLength={50} style={{ width: 320 }} /></Form.Item>
        <Form.Item name="issuer" label="发证机关"><Input maxLength={100} /></Form.Item>
        <Form.Item name="issueDate" label="发证日期" rules={[{ required: true, message: '请选择发证日期' }]}><DatePicker style={{ width: 160 }} /></Form.Item>
        <Form.Item name="remark" label="备注"><Input.TextArea maxLength={500} rows={2} /></Form.Item>
        {error ? <Alert type="error" showIcon title={error} style={{ marginBottom: 16 }} data-testid="title-error" /> : null}
        <Form.Item label=" " colon={false}>
          <Space>
            <Button type="primary" htmlType="submit" loading={saving} data-testid="title-save">保存</Button>
            <Button onClick={() => navigate(PEOPLE_PATHS.titles)}>返回</Button>
          </Space>
        </Form.Item>
      </Form>
      {editing && d ? <PeopleScans ownerKind="title" ownerId={d.id} /> : <Typography.Text type="secondary">保存后可上传职称证书扫描件。</Typography.Text>}
    </Card>
  );
}
