/** Small pieces the workflow screens share: state tag, people and department pickers, money input. */
import { useQuery } from '@tanstack/react-query';
import { Select, Tag } from 'antd';
import { useState } from 'react';
import { FlowState, type DeptRef, type UserRef } from '@zhyy/shared';
import { wfApi } from '../../api/workflow';
import { stateColour } from '../common/workflowFormat';

// Shared with the reimbursement bills' forms (features/common/MoneyInput.tsx).
export { MoneyInput } from '../common/MoneyInput';
// In its own file so that the workbench, which shows only the tag, does not carry the pickers below.
export { StateTag } from '../common/StateTag';

/** Picks active users by name or login name; the value is {id, name} (or a list when multiple). */
export function UserPicker(props: {
  value?: UserRef | UserRef[] | null;
  onChange?: (v: UserRef | UserRef[] | undefined) => void;
  multiple?: boolean;
  placeholder?: string;
  excludeIds?: string[];
  testId?: string;
  id?: string;
}) {
  const [keyword, setKeyword] = useState('');
  const { data, isFetching } = useQuery({ queryKey: ['workflow', 'people', keyword], queryFn: () => wfApi.people(keyword || undefined), staleTime: 60_000 });
  const selected = props.value ? (Array.isArray(props.value) ? props.value : [props.value]) : [];
  const options = [...selected.map((u) => ({ value: u.id, label: u.name })), ...(data ?? []).filter((u) => !selected.some((s) => s.id === u.id)).map((u) => ({ value: u.id, label: `${u.name}（${u.deptName || '无部门'}）` }))].filter(
    (o) => !props.excludeIds?.includes(o.value),
  );
  const nameOf = (id: string) => selected.find((u) => u.id === id)?.name ?? data?.find((u) => u.id === id)?.name ?? id;
  return (
    <Select
      id={props.id}
      data-testid={props.testId}
      showSearch={{ filterOption: false, onSearch: setKeyword }}
      mode={props.multiple ? 'multiple' : undefined}
      allowClear
      loading={isFetching}
      placeholder={props.placeholder ?? '输入姓名或登录名搜索'}
      value={props.multiple ? selected.map((u) => u.id) : selected[0]?.id}
      options={options}
      onChange={(v: string | string[] | undefined) => {
        if (v === undefined) return props.onChange?.(undefined);
        if (Array.isArray(v)) return props.onChange?.(v.map((id) => ({ id, name: nameOf(id) })));
        props.onChange?.({ id: v, name: nameOf(v) });
      }}
      notFoundContent={isFetching ? '加载中…' : '没有匹配的人员'}
    />
  );
}

export function useDepts() {
  return useQuery({ queryKey: ['workflow', 'depts'], queryFn: wfApi.depts, staleTime: 300_000 });
}

/** A department; the value is {id, name}. */
export function DeptPicker(props: { value?: DeptRef | null; onChange?: (v: DeptRef | undefined) => void; placeholder?: string; id?: string }) {
  const { data, isPending } = useDepts();
  return (
    <Select
      id={props.id}
      allowClear
      showSearch={{ optionFilterProp: 'label' }}
      loading={isPending}
      placeholder={props.placeholder ?? '选择部门'}
      value={props.value?.id}
      options={(data ?? []).map((d) => ({ value: d.id, label: d.name }))}
      onChange={(id?: string) => props.onChange?.(id ? { id, name: data?.find((d) => d.id === id)?.name ?? '' } : undefined)}
    />
  );
}
