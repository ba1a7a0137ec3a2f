/**
 * 新增项目 (/tender/project/add) and 修改项目 (/tender/project/modify/:id), roles 1 and 4. A registered
 * constructor (注册建造师) may lead one active project at a time: the server refuses a second one and names
 * it; the refusal is shown above the form.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Card, Col, DatePicker, Form, Input, Row, Select, Space, Spin } from 'antd';
import type { Dayjs } from 'dayjs';
import { useEffect, useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { ProjectState, formatFen, readAmountInput, type TenderProjectBody, type TenderProjectDetail } from '@zhyy/shared';
import { tenderProjectApi } from '../../../api/tender-contracts';
import { noEnterSubmit } from '../../../components/longForm';
import { feedback } from '../../../ui/feedback';
import { RecordNotFound } from '../../../components/RecordNotFound';
import { PROJECT_LIST, TENDER_PROJECT_KEY, UserSelect, dayOf, dayjsOf, projectDetailPath } from '../contracts/common';
import { PROJECT_STATE_OPTIONS } from './ProjectListPage';

interface FormValues {
  code: string;
  name: string;
  customer?: string;
  location?: string;
  amountYuan?: string;
  startDate?: Dayjs | null;
  endDate?: Dayjs | null;
  state: number;
  managerId?: string | null;
}

export function projectBody(v: FormValues, id?: string): { body: TenderProjectBody } | { error: string } {
  const amount = readAmountInput(v.amountYuan ?? '', { label: '项目金额' });
  if (!amount.ok) return { error: amount.error };
  return {
    body: {
      ...(id ? { id } : {}), code: v.code?.trim() ?? '', name: v.name?.trim() ?? '', customer: v.customer?.trim() ?? '', location: v.location?.trim() ?? '', amount: amount.fen,
      startDate: dayOf(v.startDate), endDate: dayOf(v.endDate), state: v.state, managerId: v.managerId ?? null,
    },
  };
}

const valuesOf = (d: TenderProjectDetail): FormValues => ({
  code: d.code, name: d.name, customer: d.customer, location: d.location, amountYuan: formatFen(d.amount).replaceAll(',', ''), startDate: dayjsOf(d.startDate) ?? null,
  endDate: dayjsOf(d.endDate) ?? null, state: d.state, managerId: d.managerId,
});

export default function ProjectEditPage() {
  const { id } = useParams();
  const navigate = useNavigate();
  const client = useQueryClient();
  const [form] = Form.useForm<FormValues>();
  const [error, setError] = useState('');
  const [saving, setSaving] = useState(false);
  const q = useQuery({ queryKey: [...TENDER_PROJECT_KEY, 'detail', id], queryFn: () => tenderProjectApi.detail(id!), enabled: Boolean(id) });
  const managerId = Form.useWatch('managerId', form);
  useEffect(() => {
    if (q.data) form.setFieldsValue(valuesOf(q.data));
  }, [q.data, form]);
  if (id && q.isLoading) return <Spin tip="加载中…" />;
  if (id && (q.isError || !q.data)) return <RecordNotFound what="项目" error={q.error} back={PROJECT_LIST} backLabel="返回项目列表" />;

  const submit = async (v: FormValues) => {
    setError('');
    const made = projectBody(v, id);
    if ('error' in made) return setError(made.error);
    setSaving(true);
    try {
      const done = await tenderProjectApi.save(made.body, { silent: true });
      // A save let through by a manager exception (注册建造师执业管理办法（试行）第九条) says which rule allowed it.
      if (done.message?.includes('依据')) void feedback().message.success(done.message, 8);
      await client.invalidateQueries({ queryKey: TENDER_PROJECT_KEY });
      navigate(projectDetailPath(done.r.id));
    } catch (e) {
      setError(e instanceof Error ? e.message : '保存失败');
    } finally {
      setSaving(false);
    }
  };

  return (
    <Card size="small" title={id ? `修改项目 ${q.data?.code ?? ''}` : '新增项目'} extra={<Button onClick={() => navigate(-1)}>返回</Button>} data-testid="tender-project-editor">
      {error ? <Alert type="error" showIcon title={error} style={{ marginBottom: 12 }} data-testid="editor-error" /> : null}
      <Form<FormValues> form={form} layout="vertical" initialValues={{ state: ProjectState.building }} onFinish={submit} onKeyDown={noEnterSubmit}>
        <Row gutter={16}>
          <Col span={6}>
            <Form.Item name="code" label="项目编号" rules={[{ required: true, whitespace: true, message: '请填写项目编号' }, { max: 50, message: '项目编号不能超过50个字符' }]}>
              <Input />
            </Form.Item>
          </Col>
          <Col span={12}>
            <Form.Item name="name" label="项目名称" rules={[{ required: true, whitespace: true, message: '请填写项目名称' }, { max: 100, message: '项目名称不能超过100个字符' }]}>
              <Input />
            </Form.Item>
          </Col>
          <Col span={6}>
            <Form.Item name="state" label="项目状态" rules={[{ required: true, message: '请选择项目状态' }]}>
              <Select options={PROJECT_STATE_OPTIONS} />
            </Form.Item>
          </Col>
          <Col span={12}>
            <Form.Item name="customer" label="客户" rules={[{ max: 100, message: '客户不能超过100个字符' }]}>
              <Input />
            </Form.Item>
          </Col>
          <Col span={6}>
            <Form.Item name="location" label="项目地点" rules={[{ max: 100, message: '项目地点不能超过100个字符' }]}>
              <Input />
            </Form.Item>
          </Col>
          <Col span={6}>
            <Form.Item name="amountYuan" label="项目金额（元）">
              <Input inputMode="decimal" />
            </Form.Item>
          </Col>
          <Col span={6}>
            <Form.Item name="startDate" label="开工日期">
              <DatePicker style={{ width: '100%' }} />
            </Form.Item>
          </Col>
          <Col span={6}>
            <Form.Item name="endDate" label="完工日期">
              <DatePicker style={{ width: '100%' }} />
            </Form.Item>
          </Col>
          <Col span={6}>
            <Form.Item name="managerId" label="项目经理">
              <UserSelect width={undefined} known={q.data?.managerId ? { id: q.data.managerId, label: q.data.managerName } : null} />
            </Form.Item>
          </Col>
          <Col span={6}>
            <Form.Item label="注册建造师" tooltip="保存时按项目经理的有效一级/二级建造师证书自动判断">
              <span data-testid="manager-registered">{q.data?.managerId && q.data.managerId === managerId ? (q.data.managerRegistered ? '是' : '否') : '保存后按证书判断'}</span>
            </Form.Item>
          </Col>
        </Row>
        <Space>
          <Button type="primary" htmlType="submit" loading={saving}>保存</Button>
          <Button onClick={() => navigate(-1)}>取消</Button>
        </Space>
      </Form>
    </Card>
  );
}
