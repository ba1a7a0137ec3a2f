/**
 * 报销编辑 (/reimbursement/edit/:id, roles 1, 12, 16): a bill not yet pushed (未报销) or failed (报销失败) —
 * each line's accounting subject (code and name; the category's from 报销设置 as the default), the cost
 * centre (the department's as the default) and the 摘要; the voucher the push would make, or what is
 * missing; 保存 and 保存并推送 (after a confirmation). A pushed bill is shown read-only. The push history
 * is at the bottom.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Card, Descriptions, Empty, Form, Input, Modal, Skeleton, Space, Table, Tag, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { formatFen, type ReimbEditBody, type ReimbEditDetail, type ReimbEditLine, type ReimbPushHistoryRow, type ReimbVoucherEntryView } from '@zhyy/shared';
import { reimbAccountingApi } from '../../../api/reimbursementAccounting';
import { formatTime } from '../../../components/download';
import { feedback } from '../../../ui/feedback';
import { Money } from '../../common/Money';
import { PushResults, pushOneByOne, type PushRun } from './ApplyList';
import { APPLY_LIST, REIMB_ACCOUNTING_KEY, STATE_COLOURS, stateText } from './common';

interface FormValues {
  costCentreCode: string;
  costCentreName: string;
  summary: string;
  lines: Array<{ id: string; subjectCode: string; subjectName: string }>;
}

export function initialValues(d: ReimbEditDetail): FormValues {
  return {
    costCentreCode: d.costCentreCode || d.deptCostCentreCode,
    costCentreName: d.costCentreName || d.deptCostCentreName,
    summary: d.summary,
    lines: d.lines.map((l) => ({ id: l.id, subjectCode: l.subjectCode || l.categorySubjectCode, subjectName: l.subjectName || l.categorySubjectName })),
  };
}

const required = (label: string) => [{ required: true, whitespace: true, message: `请填写${label}` }];

export default function BillEdit() {
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const qc = useQueryClient();
  const [form] = Form.useForm<FormValues>();
  const [error, setError] = useState('');
  const [saving, setSaving] = useState(false);
  const [run, setRun] = useState<PushRun | null>(null);
  const key = [...REIMB_ACCOUNTING_KEY, 'edit', id];
  const q = useQuery({ queryKey: key, queryFn: () => reimbAccountingApi.editDetail(id) });
  const d = q.data;
  useEffect(() => {
    if (d) form.setFieldsValue(initialValues(d));
  }, [d, form]);

  const save = async (): Promise<boolean> => {
    const v = await form.validateFields().catch(() => null);
    if (!v || !d) return false;
    setSaving(true);
    setError('');
    try {
      const body: ReimbEditBody = { billId: d.id, costCentreCode: v.costCentreCode.trim(), costCentreName: v.costCentreName.trim(), summary: (v.summary ?? '').trim(), lines: d.lines.map((l, i) => ({ id: l.id, subjectCode: (v.lines[i]?.subjectCode ?? '').trim(), subjectName: (v.lines[i]?.subjectName ?? '').trim() })) };
      const a = await reimbAccountingApi.editSave(body);
      qc.setQueryData(key, a.r);
      void qc.invalidateQueries({ queryKey: REIMB_ACCOUNTING_KEY });
      return true;
    } catch (e) {
      setError(e instanceof Error ? e.message : '保存失败');
      return false;
    } finally {
      setSaving(false);
    }
  };
  const saveOnly = async () => {
    if (await save()) void feedback().message.success('已保存');
  };
  const saveAndPush = async () => {
    if (!d || !(await save())) return;
    feedback().modal.confirm({
      title: `确认将报销单 ${d.billNo} 推送会计系统？`,
      content: `核定金额 ${formatFen(d.approvedAmount)} 元，生成一张记账凭证；成功后发票完成使用并标记入账。`,
      okText: '确认推送',
      cancelText: '取消',
      onOk: () => {
        setRun({ total: 1, results: [], running: true });
        void pushOneByOne([{ id: d.id, billNo: d.billNo }], (r) => setRun((x) => (x ? { ...x, results: [...x.results, r] } : x))).then(() => {
          setRun((x) => (x ? { ...x, running: false } : x));
          void qc.invalidateQueries({ queryKey: REIMB_ACCOUNTING_KEY });
        });
      },
    });
  };

  if (q.isError) return <Alert type="error" showIcon title="报销单加载失败，请返回列表后重试" />;
  if (!d) return <Skeleton active />;
  const editable = d.editable;
  return (
    <Space orientation="vertical" size={12} style={{ width: '100%' }} data-testid="reimb-edit">
      <Card size="small" title={`报销单 ${d.billNo}`} extra={<Tag color={STATE_COLOURS[d.reimbState ?? 0]}>{stateText(d.reimbState)}</Tag>}>
        <Descriptions size="small" bordered column={3}>
          <Descriptions.Item label="申请人">{d.applicantName}</Descriptions.Item>
          <Descriptions.Item label="部门">{d.deptName || '—'}</Descriptions.Item>
          <Descriptions.Item label="事由">{d.reason}</Descriptions.Item>
          <Descriptions.Item label="申请金额"><Money fen={d.amount} /></Descriptions.Item>
          <Descriptions.Item label="核定金额"><Money fen={d.approvedAmount} strong /></Descriptions.Item>
          <Descriptions.Item label="可抵扣税额"><Money fen={d.deductibleTax} /></Descriptions.Item>
          {d.voucherNo ? <Descriptions.Item label="凭证号" span={3}>{d.voucherPeriod} {d.voucherNo}</Descriptions.Item> : null}
        </Descriptions>
        {d.pushMessage ? <Alert type="error" showIcon style={{ marginTop: 12 }} title={`上次推送失败：${d.pushMessage}`} data-testid="edit-push-message" /> : null}
        {!editable ? <Alert type="info" showIcon style={{ marginTop: 12 }} title={`报销单当前为${stateText(d.reimbState)}，只有未报销或报销失败的报销单可以编辑`} /> : null}
      </Card>
      <Card size="small" title="会计信息">
        <Form form={form} layout="vertical" disabled={!editable} initialValues={initialValues(d)}>
          <Space wrap align="start">
            <Form.Item name="costCentreCode" label="成本中心编码" rules={required('成本中心编码')} extra={d.deptCostCentreCode ? `部门默认：${d.deptCostCentreCode}` : '部门未设置成本中心'}>
              <Input maxLength={40} style={{ width: 180 }} data-testid="cost-centre-code" />
            </Form.Item>
            <Form.Item name="costCentreName" label="成本中心名称" rules={required('成本中心名称')}>
              <Input maxLength={100} style={{ width: 220 }} data-testid="cost-centre-name" />
            </Form.Item>
          </Space>
          <Form.Item name="summary" label="摘要" extra={`留空使用默认摘要：${d.defaultSummary}`}>
            <Input maxLength={200} showCount data-testid="acct-summary" />
          </Form.Item>
              <Table<ReimbEditLine>
                size="small"
                rowKey="id"
                pagination={false}
                dataSource={d.lines}
                scroll={{ x: 1100 }}
                columns={[
                  { title: '行', dataIndex: 'lineNo', width: 50 },
                  { title: '费用类别', dataIndex: 'categoryName', width: 110 },
                  { title: '说明', dataIndex: 'description', width: 160, ellipsis: true },
                  { title: '核定金额', dataIndex: 'approvedAmount', width: 110, align: 'right', render: (v: number) => <Money fen={v} /> },
                  { title: '可抵扣税额', dataIndex: 'deductibleTax', width: 100, align: 'right', render: (v: number) => <Money fen={v} /> },
                  {
                    title: '会计科目编码', key: 'code', width: 170,
                    render: (_: unknown, _l, i) => (
                      <Form.Item name={['lines', i, 'subjectCode']} rules={required('会计科目编码')} style={{ margin: 0 }}>
                        <Input maxLength={40} placeholder="如 660201" data-testid={`subject-code-${i}`} />
                      </Form.Item>
                    ),
                  },
                  {
                    title: '会计科目名称', key: 'name', width: 240,
                    render: (_: unknown, _l, i) => (
                      <Form.Item name={['lines', i, 'subjectName']} rules={required('会计科目名称')} style={{ margin: 0 }}>
                        <Input maxLength={100} placeholder="如 管理费用—差旅费" data-testid={`subject-name-${i}`} />
                      </Form.Item>
                    ),
                  },
                ]}
                data-testid="edit-lines"
              />
        </Form>
        {error ? <Alert type="error" showIcon style={{ marginTop: 12 }} title={error} data-testid="edit-error" /> : null}
        <Space style={{ marginTop: 12 }}>
          <Button onClick={() => void saveOnly()} loading={saving} disabled={!editable} data-testid="edit-save">保存</Button>
          <Button type="primary" onClick={() => void saveAndPush()} loading={saving} disabled={!editable} data-testid="edit-push">保存并推送</Button>
          <Button onClick={() => navigate(APPLY_LIST)}>返回</Button>
        </Space>
      </Card>
      <Card size="small" title="凭证预览（按已保存的信息）">
        {d.problem ? <Alert type="warning" showIcon title={d.problem} data-testid="voucher-problem" /> : (
          <Table<ReimbVoucherEntryView>
            size="small"
            rowKey={(e) => `${e.dc}-${e.accountCode}-${e.summary}`}
            pagination={false}
            dataSource={d.voucher}
            columns={[
              { title: '摘要', dataIndex: 'summary', ellipsis: true },
              { title: '科目', key: 'acct', width: 280, render: (_: unknown, e) => `${e.accountCode} ${e.accountName}` },
              { title: '借方', key: 'debit', width: 120, align: 'right', render: (_: unknown, e) => (e.dc === 'debit' ? <Money fen={e.amount} /> : null) },
              { title: '贷方', key: 'credit', width: 120, align: 'right', render: (_: unknown, e) => (e.dc === 'credit' ? <Money fen={e.amount} /> : null) },
            ]}
            data-testid="voucher-preview"
          />
        )}
      </Card>
      <Card size="small" title="推送记录">
        {d.history.length ? (
          <Table<ReimbPushHistoryRow>
            size="small"
            rowKey="id"
            pagination={false}
            dataSource={d.history}
            columns={[
              { title: '时间', dataIndex: 'createdAt', width: 170, render: formatTime },
              { title: '操作', dataIndex: 'action', width: 80, render: (a: string) => (a === 'revoke' ? '撤销' : a === 'reverse' ? '红字冲销' : '推送') },
              { title: '结果', dataIndex: 'ok', width: 80, render: (v: boolean) => (v ? <Tag color="success">成功</Tag> : <Tag color="error">失败</Tag>) },
              { title: '凭证号', dataIndex: 'voucherNo', width: 100 },
              { title: '说明', dataIndex: 'message', render: (m: string) => <Typography.Text>{m}</Typography.Text> },
              { title: '操作人', dataIndex: 'userName', width: 90 },
            ]}
          />
        ) : <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="尚未推送" />}
      </Card>
      <Modal open={!!run} title="推送会计系统" closable={!run?.running} maskClosable={false} onCancel={() => setRun(null)} footer={run?.running ? null : <Button type="primary" onClick={() => setRun(null)}>关闭</Button>} width={640}>
        {run ? <PushResults run={run} /> : null}
      </Modal>
    </Space>
  );
}
