/**
 * 调整项目分摊 of an incoming invoice: the outgoing invoices' split editor (SplitModal) on the incoming
 * routes — the project lookup of /api/income/entry/project/targets, the invoice's department (optional:
 * left empty, the one recorded stays), the reason; saved through project/set in 分.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Form, Select } from 'antd';
import type { EntryDetail } from '@zhyy/shared';
import { incomeProjectApi, type EntryDept } from '../../../../api/incomeRevoke';
import { SplitModal } from '../../../common/apportionment/SplitEditor';
import { poolNumber } from '../../pool/request';
import { INCOME_PROJECTS, PROJECT_KEY } from './common';

/** Departments as options labelled with their path (华建集团 / 财务部), in the list's order. */
export function deptOptions(list: readonly EntryDept[]): Array<{ value: string; label: string }> {
  const byId = new Map(list.map((d) => [d.id, d]));
  const path = (d: EntryDept): string => {
    const names: string[] = [];
    for (let x: EntryDept | undefined = d, n = 0; x && n < 20; x = x.parentId ? byId.get(x.parentId) : undefined, n++) names.unshift(x.name);
    return names.join(' / ');
  };
  return list.map((d) => ({ value: d.id, label: path(d) }));
}

export function DeptSelect(props: { value?: string; onChange?: (v: string | undefined) => void }) {
  const q = useQuery({ queryKey: [...PROJECT_KEY, 'depts'], queryFn: () => incomeProjectApi.depts(), staleTime: 300_000 });
  return (
    <Select
      allowClear
      showSearch={{ optionFilterProp: 'label' }}
      value={props.value}
      onChange={props.onChange}
      loading={q.isFetching}
      placeholder="选择发票所属部门"
      notFoundContent={q.isFetching ? '加载中…' : '没有匹配的部门'}
      options={deptOptions(q.data ?? [])}
      style={{ width: 420 }}
      data-testid="split-dept"
    />
  );
}

export type SplitInvoice = Pick<EntryDetail, 'id' | 'invoiceNo' | 'digitalNo' | 'amountIncl' | 'tax' | 'deptId' | 'allocations'>;

export function IncomeSplitEditor({ invoice, open, onClose }: { invoice: SplitInvoice; open: boolean; onClose: () => void }) {
  const qc = useQueryClient();
  return (
    <SplitModal
      title={`调整项目分摊 · 发票 ${poolNumber(invoice)}`}
      open={open}
      onClose={onClose}
      invoice={invoice}
      current={invoice.allocations.map((a) => ({ targetId: a.projectId, amountIncl: a.amountIncl }))}
      dim="project"
      lookup={INCOME_PROJECTS}
      extra={
        <Form.Item name="deptId" label="发票所属部门" extra="部门签收按此部门列出发票；不选则保持原登记">
          <DeptSelect />
        </Form.Item>
      }
      extraInitial={{ deptId: invoice.deptId ?? undefined }}
      save={(items, v) =>
        incomeProjectApi.set({
          invoiceId: invoice.id,
          ...(typeof v.deptId === 'string' && v.deptId ? { deptId: v.deptId } : {}),
          items: items.map((x) => ({ projectId: x.targetId, amountExcl: x.amountExcl, tax: x.tax, amountIncl: x.amountIncl })),
          reason: v.reason.trim(),
        })
      }
      onSaved={() => void qc.invalidateQueries({ queryKey: PROJECT_KEY })}
      testId="income-split"
    />
  );
}
