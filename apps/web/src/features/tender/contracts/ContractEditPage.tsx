/**
 * The contract editor: 新增框架合同 (/tender/contract/addcf/1/:id), 新增单项/订单合同 (/tender/contract/addc/
 * 2|3/:id) — :id is EMPTY_ID for a blank form or a contract whose fields are copied (its number left
 * blank) — and 编辑合同 (/tender/contract/edit/:contractType/:id). The amount is typed in 元 and sent in 分;
 * an order must name its frame contract. The pages (scans) are uploaded on the edit page (ContractPages).
 * A long form (components/longForm): Enter never submits it, and a refusal shows under the field it names.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Card, Col, DatePicker, Form, Input, Row, Select, Space, Spin } from 'antd';
import type { Dayjs } from 'dayjs';
import { useEffect, useState } from 'react';
import { useLocation, useNavigate, useParams } from 'react-router';
import { ContractType, EMPTY_ID, formatFen, readAmountInput, type TenderContractBody, type TenderContractDetail } from '@zhyy/shared';
import { tenderContractApi } from '../../../api/tender-contracts';
import { noEnterSubmit, placeServerError, plainMessage } from '../../../components/longForm';
import { RecordNotFound } from '../../../components/RecordNotFound';
import { CONTRACT_LIST, CONTRACT_TYPE_OPTIONS, FrameSelect, ProjectSelect, TENDER_CONTRACT_KEY, UserSelect, contractDetailPath, dayOf, dayjsOf } from './common';
import { ContractPages } from './ContractPages';

/** Each field's label, as the form shows it: a refusal naming one is placed under that field. */
export const CONTRACT_LABELS: Record<string, string> = {
  contractType: '合同类型', code: '合同编号', name: '合同名称', customer: '客户', amountYuan: '合同金额', managerId: '合同负责人', projectId: '项目',
  frameId: '所属框架合同', signedOn: '签订日期', workFrom: '工期开始日期', workTo: '工期结束日期', acceptedOn: '竣工验收日期', remark: '备注',
};

interface FormValues {
  contractType: number;
  code: string;
  name: string;
  customer: string;
  amountYuan: string;
  projectId?: string | null;
  frameId?: string | null;
  managerId?: string | null;
  signedOn?: Dayjs | null;
  workFrom?: Dayjs | null;
  workTo?: Dayjs | null;
  acceptedOn?: Dayjs | null;
  remark?: string;
}

/** The form's values as the call's body (the amount read from 元; an error names the field). */
export function contractBody(v: FormValues, id?: string): { body: TenderContractBody } | { error: string } {
  const amount = readAmountInput(v.amountYuan, { label: '合同金额' });
  if (!amount.ok) return { error: amount.error };
  return {
    body: {
      ...(id ? { id } : {}), contractType: v.contractType, code: v.code?.trim() ?? '', name: v.name?.trim() ?? '', customer: v.customer?.trim() ?? '', amount: amount.fen,
      projectId: v.projectId ?? null, frameId: v.contractType === ContractType.order ? (v.frameId ?? null) : null, managerId: v.managerId ?? null,
      signedOn: dayOf(v.signedOn), workFrom: dayOf(v.workFrom), workTo: dayOf(v.workTo), acceptedOn: dayOf(v.acceptedOn), remark: v.remark?.trim() ?? '',
    },
  };
}

export function formValuesOf(d: TenderContractDetail, copy: boolean): FormValues {
  return {
    contractType: d.contractType, code: copy ? '' : d.code, name: d.name, customer: d.customer, amountYuan: formatFen(d.amount).replaceAll(',', ''), projectId: d.projectId,
    frameId: d.frameId, managerId: d.managerId, signedOn: dayjsOf(d.signedOn) ?? null, workFrom: dayjsOf(d.workFrom) ?? null, workTo: dayjsOf(d.workTo) ?? null,
    acceptedOn: dayjsOf(d.acceptedOn) ?? null, remark: d.remark,
  };
}

export default function ContractEditPage() {
  const { contractType: typeParam, id = EMPTY_ID } = useParams();
  const editing = useLocation().pathname.includes('/contract/edit/');
  const frameOnly = useLocation().pathname.includes('/contract/addcf/');
  const type = Number(typeParam);
  const initialType = ContractType.has(type) && (frameOnly ? type === ContractType.frame : true) ? type : frameOnly ? ContractType.frame : ContractType.single;
  const loadId = id !== EMPTY_ID ? id : null;
  const navigate = useNavigate();
  const client = useQueryClient();
  const [form] = Form.useForm<FormValues>();
  const [error, setError] = useState('');
  const [saving, setSaving] = useState(false);
  const source = useQuery({ queryKey: [...TENDER_CONTRACT_KEY, 'detail', loadId], queryFn: () => tenderContractApi.detail(loadId!), enabled: Boolean(loadId) });
  const chosenType = Form.useWatch('contractType', form) ?? initialType;

  useEffect(() => {
    if (source.data) form.setFieldsValue(formValuesOf(source.data, !editing));
  }, [source.data, editing, form]);

  if (loadId && source.isLoading) return <Spin tip="加载中…" fullscreen={false} />;
  if (loadId && source.isError) return <RecordNotFound what="合同" error={source.error} back={CONTRACT_LIST} backLabel="返回合同台账" />;
  const d = source.data;

  const submit = async (v: FormValues) => {
    setError('');
    const made = contractBody(v, editing ? (d?.id ?? undefined) : undefined);
    if ('error' in made) {
      if (!placeServerError(form, made.error, CONTRACT_LABELS)) setError(made.error);
      return;
    }
    setSaving(true);
    try {
      const done = editing ? await tenderContractApi.edit(made.body, { silent: true }) : await tenderContractApi.add(made.body, { silent: true });
      await client.invalidateQueries({ queryKey: TENDER_CONTRACT_KEY });
      navigate(contractDetailPath(done.r.contractType, done.r.id));
    } catch (e) {
      const message = e instanceof Error ? e.message : '保存失败';
      if (!placeServerError(form, message, CONTRACT_LABELS)) setError(plainMessage(message));
    } finally {
      setSaving(false);
    }
  };

  const title = editing ? `编辑合同 ${d?.code ?? ''}` : frameOnly ? '新增框架合同' : `新增${ContractType.label(chosenType)}`;
  const typeOptions = frameOnly ? CONTRACT_TYPE_OPTIONS.filter((o) => o.value === ContractType.frame) : editing ? CONTRACT_TYPE_OPTIONS : CONTRACT_TYPE_OPTIONS.filter((o) => o.value !== ContractType.frame);
  const known = (idv: string | null | undefined, code: string, name: string) => (idv ? { id: idv, label: `${code} ${name}`.trim() } : null);

  return (
    <Space orientation="vertical" style={{ width: '100%' }} size={12} data-testid="tender-contract-editor">
      <Card title={title} size="small" extra={<Button onClick={() => navigate(-1)}>返回</Button>}>
        {error ? <Alert type="error" showIcon title={error} style={{ marginBottom: 12 }} data-testid="editor-error" /> : null}
        <Form<FormValues> form={form} layout="vertical" initialValues={{ contractType: initialType, amountYuan: '', remark: '' }} onFinish={submit} onKeyDown={noEnterSubmit}>
          <Row gutter={16}>
            <Col span={6}>
              <Form.Item name="contractType" label="合同类型" rules={[{ required: true, message: '请选择合同类型' }]}>
                <Select options={typeOptions} disabled={frameOnly} />
              </Form.Item>
            </Col>
            <Col span={6}>
              <Form.Item name="code" label="合同编号" rules={[{ required: true, whitespace: true, message: '请填写合同编号' }, { max: 50, message: '合同编号不能超过50个字符' }]}>
                <Input />
              </Form.Item>
            </Col>
            <Col span={12}>
              <Form.Item name="name" label="合同名称" rules={[{ required: true, whitespace: true, message: '请填写合同名称' }, { max: 100, message: '合同名称不能超过100个字符' }]}>
                <Input />
              </Form.Item>
            </Col>
            <Col span={12}>
              <Form.Item name="customer" label="客户" rules={[{ required: true, whitespace: true, message: '请填写客户' }, { max: 100, message: '客户不能超过100个字符' }]}>
                <Input />
              </Form.Item>
            </Col>
            <Col span={6}>
              <Form.Item name="amountYuan" label="合同金额（元）" rules={[{ required: true, message: '请填写合同金额' }]}>
                <Input inputMode="decimal" placeholder="如 1200000.00" />
              </Form.Item>
            </Col>
            <Col span={6}>
              <Form.Item name="managerId" label="合同负责人">
                <UserSelect width={undefined} known={d?.managerId ? { id: d.managerId, label: d.managerName } : null} />
              </Form.Item>
            </Col>
            <Col span={12}>
              <Form.Item name="projectId" label="项目">
                <ProjectSelect width={420} known={known(d?.projectId, d?.projectCode ?? '', d?.projectName ?? '')} />
              </Form.Item>
            </Col>
            {chosenType === ContractType.order ? (
              <Col span={12}>
                <Form.Item name="frameId" label="所属框架合同" rules={[{ required: true, message: '订单合同须选择所属框架合同' }]}>
                  <FrameSelect width={420} known={known(d?.frameId, d?.frameCode ?? '', d?.frameName ?? '')} />
                </Form.Item>
              </Col>
            ) : null}
            <Col span={6}>
              <Form.Item name="signedOn" label="签订日期">
                <DatePicker style={{ width: '100%' }} />
              </Form.Item>
            </Col>
            <Col span={6}>
              <Form.Item name="workFrom" label="工期开始日期">
                <DatePicker style={{ width: '100%' }} />
              </Form.Item>
            </Col>
            <Col span={6}>
              <Form.Item name="workTo" label="工期结束日期" dependencies={['workFrom']} rules={[({ getFieldValue }) => ({ validator: async (_r, v: Dayjs | null) => {
                const from = getFieldValue('workFrom') as Dayjs | null;
                if (v && from && v.isBefore(from, 'day')) throw new Error('工期结束日期不能早于开始日期');
              } })]}>
                <DatePicker style={{ width: '100%' }} />
              </Form.Item>
            </Col>
            <Col span={6}>
              <Form.Item name="acceptedOn" label="竣工验收日期">
                <DatePicker style={{ width: '100%' }} />
              </Form.Item>
            </Col>
            <Col span={24}>
              <Form.Item name="remark" label="备注" rules={[{ max: 500, message: '备注不能超过500个字符' }]}>
                <Input.TextArea rows={2} />
              </Form.Item>
            </Col>
          </Row>
          <Space>
            <Button type="primary" htmlType="submit" loading={saving}>
              保存
            </Button>
            <Button onClick={() => navigate(-1)}>取消</Button>
          </Space>
        </Form>
      </Card>
      {editing && d ? <ContractPages contract={d} editable /> : null}
    </Space>
  );
}
