/**
 * 项目经理例外 (issue 29 item 11): the lawful exceptions of 注册建造师执业管理办法（试行）第九条 on a project's
 * detail — each with its ground, the other project, the stop day and days since, its days, evidence (the
 * tender attachment panel, owner 'manager-exception'), who recorded it, and whether it allows the pair today
 * (the server's problem, in red) — and the form recording one. `exceptionSummary` is also 业绩核查's line.
 */
import { useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Card, DatePicker, Form, Input, Modal, Popconfirm, Select, Space, Table, Tag, Typography } from 'antd';
import type { Dayjs } from 'dayjs';
import { useState } from 'react';
import { ManagerExceptionGround, MANAGER_EXCEPTION_ARTICLE, MANAGER_EXCEPTION_OWNER, SUSPENSION_MIN_DAYS, type ManagerExceptionBody, type ManagerExceptionRow, type TenderProjectDetail } from '@zhyy/shared';
import { tenderExceptionApi } from '../../../api/tender-contracts';
import { formatDateTime } from '../../../components/format';
import { AttachmentPanel } from '../common/AttachmentPanel';
import { ProjectSelect, TENDER_PROJECT_KEY, UserSelect, dayOf } from '../contracts/common';

export const GROUND_OPTIONS = ManagerExceptionGround.options.map((o) => ({ value: o.value, label: o.label }));

export interface ExceptionFormValues {
  managerId?: string | null;
  otherProjectId?: string | null;
  ground?: number;
  stopDate?: Dayjs | null;
  validFrom?: Dayjs | null;
  validTo?: Dayjs | null;
  remark?: string;
}

/** The body of a record (or the first thing missing, in the server's words). */
export function exceptionBody(v: ExceptionFormValues, projectId: string, id?: string): { body: ManagerExceptionBody } | { error: string } {
  if (!v.managerId) return { error: '请选择项目经理' };
  if (!v.otherProjectId) return { error: '请选择所涉的另一个项目' };
  if (!v.ground) return { error: '请选择例外情形' };
  const stopped = v.ground === ManagerExceptionGround.suspended;
  if (stopped && !v.stopDate) return { error: '请填写停工日期' };
  const validFrom = dayOf(v.validFrom);
  if (!validFrom) return { error: '请填写例外起始日期' };
  return {
    body: {
      ...(id ? { id } : {}), projectId, managerId: v.managerId, otherProjectId: v.otherProjectId, ground: v.ground, validFrom, validTo: dayOf(v.validTo),
      stopDate: stopped ? dayOf(v.stopDate) : null, remark: v.remark?.trim() ?? '',
    },
  };
}

/** The other project of an exception, seen from `projectId`. */
const otherOf = (r: ManagerExceptionRow, projectId: string) => (r.projectId === projectId ? `${r.otherCode} ${r.otherName}` : `${r.projectCode} ${r.projectName}`);

/** One line: who, with which project, on which ground, since when and for how long. */
export function exceptionSummary(r: ManagerExceptionRow, projectId: string): string {
  const stop = r.stopDate ? `，${r.stopDate}停工，至今${r.stopDays}天` : '';
  return `${r.managerName}同时担任「${otherOf(r, projectId)}」的项目经理：${ManagerExceptionGround.label(r.ground)}${stop}；有效期 ${r.validFrom} 至 ${r.validTo ?? '长期'}`;
}

export function ExceptionState({ row }: { row: ManagerExceptionRow }) {
  return row.problem ? (
    <Space orientation="vertical" size={0}>
      {row.endReason ? <Tag>已终止</Tag> : <Tag color="red">不可用</Tag>}
      <Typography.Text type="danger" data-testid="exception-problem">{row.problem}</Typography.Text>
    </Space>
  ) : (
    <Tag color="green">可用</Tag>
  );
}

function ExceptionForm({ project, onDone }: { project: TenderProjectDetail; onDone(row: ManagerExceptionRow): void }) {
  const [form] = Form.useForm<ExceptionFormValues>();
  const [error, setError] = useState('');
  const [saving, setSaving] = useState(false);
  const ground = Form.useWatch('ground', form);
  const submit = async (v: ExceptionFormValues) => {
    setError('');
    const made = exceptionBody(v, project.id);
    if ('error' in made) return setError(made.error);
    setSaving(true);
    try {
      onDone((await tenderExceptionApi.save(made.body, { silent: true })).r);
    } catch (e) {
      setError(e instanceof Error ? e.message : '登记失败');
    } finally {
      setSaving(false);
    }
  };
  return (
    <Form<ExceptionFormValues> form={form} layout="vertical" initialValues={{ managerId: project.managerId }} onFinish={submit} data-testid="exception-form">
      {error ? <Alert type="error" showIcon title={error} style={{ marginBottom: 12 }} data-testid="exception-error" /> : null}
      <Form.Item name="managerId" label="项目经理">
        <UserSelect width={320} aria-label="项目经理" known={project.managerId ? { id: project.managerId, label: project.managerName } : null} />
      </Form.Item>
      <Form.Item name="otherProjectId" label="所涉的另一个项目（该项目经理已担任的项目）">
        <ProjectSelect width={320} aria-label="所涉的另一个项目" />
      </Form.Item>
      <Form.Item name="ground" label={`例外情形（${MANAGER_EXCEPTION_ARTICLE}）`}>
        <Select options={GROUND_OPTIONS} aria-label="例外情形" style={{ width: 320 }} />
      </Form.Item>
      {ground === ManagerExceptionGround.suspended ? (
        <Form.Item name="stopDate" label="停工日期" extra={`另一个项目须为停工状态，且停工满${SUSPENSION_MIN_DAYS}天（含）；例外自满${SUSPENSION_MIN_DAYS}天之日起`}>
          <DatePicker aria-label="停工日期" />
        </Form.Item>
      ) : ground ? (
        <Typography.Paragraph type="secondary">两个项目须为同一发包人（客户相同）的工程。</Typography.Paragraph>
      ) : null}
      <Space>
        <Form.Item name="validFrom" label="起始日期">
          <DatePicker aria-label="起始日期" />
        </Form.Item>
        <Form.Item name="validTo" label="截止日期（空为长期）">
          <DatePicker aria-label="截止日期" />
        </Form.Item>
      </Space>
      <Form.Item name="remark" label="说明" rules={[{ max: 200, message: '说明不能超过200个字符' }]}>
        <Input.TextArea rows={2} aria-label="说明" />
      </Form.Item>
      <Typography.Paragraph type="secondary">登记后请上传证明材料（建设单位同意的书面文件、停工证明，或相邻分段、分期施工的合同）；没有证明材料的例外不能使用。</Typography.Paragraph>
      <Button type="primary" htmlType="submit" loading={saving}>登记</Button>
    </Form>
  );
}

export function ManagerExceptions({ project, editable }: { project: TenderProjectDetail; editable: boolean }) {
  const client = useQueryClient();
  const [adding, setAdding] = useState(false);
  const [open, setOpen] = useState<string[]>([]);
  const refresh = () => client.invalidateQueries({ queryKey: TENDER_PROJECT_KEY });
  const rows = project.managerExceptions;
  return (
    <Card
      size="small"
      title={
        <Space size={8}>
          {`项目经理例外（${rows.length}）`}
          <Typography.Text type="secondary" style={{ fontWeight: 'normal' }}>依据{MANAGER_EXCEPTION_ARTICLE}</Typography.Text>
        </Space>
      }
      data-testid="manager-exceptions"
      extra={editable ? <Button onClick={() => setAdding(true)}>登记例外</Button> : null}
    >
      <Table<ManagerExceptionRow>
        size="small" rowKey="id" dataSource={rows} pagination={false} scroll={{ x: 1100 }}
        locale={{ emptyText: '没有登记例外：注册建造师不能同时担任两个在建项目的项目经理' }}
        expandable={{
          expandedRowKeys: open,
          onExpandedRowsChange: (keys) => setOpen(keys as string[]),
          expandedRowRender: (r) => (
            <AttachmentPanel ownerKind={MANAGER_EXCEPTION_OWNER} ownerId={r.id} slots={[{ kind: 0, label: '证明材料', required: true }]} editable={editable} onChange={(files) => files.length !== r.evidenceCount && void refresh()} />
          ),
        }}
        columns={[
          { title: '项目经理', dataIndex: 'managerName', key: 'managerName', width: 90 },
          { title: '所涉项目', key: 'other', width: 200, ellipsis: true, render: (_, r) => otherOf(r, project.id) },
          { title: '情形', key: 'ground', width: 230, render: (_, r) => ManagerExceptionGround.label(r.ground) },
          { title: '停工日期', key: 'stop', width: 150, render: (_, r) => (r.stopDate ? `${r.stopDate}（${r.stopDays}天）` : '—') },
          { title: '有效期', key: 'days', width: 190, render: (_, r) => `${r.validFrom} 至 ${r.validTo ?? '长期'}` },
          { title: '证明材料', key: 'evidence', width: 90, render: (_, r) => (r.evidenceCount ? <Tag color="green">{r.evidenceCount} 份</Tag> : <Tag color="red">缺失</Tag>) },
          { title: '状态', key: 'state', width: 220, render: (_, r) => <ExceptionState row={r} /> },
          { title: '登记', key: 'by', width: 150, render: (_, r) => `${r.createdBy} ${formatDateTime(r.createdAt)}` },
          ...(editable
            ? [{
                title: '操作', key: 'ops', width: 80, fixed: 'right' as const,
                render: (_: unknown, r: ManagerExceptionRow) => (
                  <Popconfirm title="删除该例外及其证明材料？" onConfirm={async () => { await tenderExceptionApi.remove(r.id).catch(() => undefined); await refresh(); }}>
                    <Button type="link" size="small" danger>删除</Button>
                  </Popconfirm>
                ),
              }]
            : []),
        ]}
      />
      <Modal open={adding} title="登记项目经理例外" footer={null} onCancel={() => setAdding(false)} destroyOnHidden width={560}>
        <ExceptionForm
          project={project}
          onDone={(row) => {
            setAdding(false);
            setOpen((o) => [...o, row.id]);
            void refresh();
          }}
        />
      </Modal>
    </Card>
  );
}
