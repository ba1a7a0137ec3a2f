/**
 * The department and project pickers of the cost pages (filters and the order editor). Departments come from
 * the organisation tree every signed-in user may read (/user/user-org-tree-list); projects from
 * /cost-order/projects, searched by code or name on the server: every cost page's project filter and the order
 * editor use CostProjectSelect (the one caller of that call).
 */
import { useQuery } from '@tanstack/react-query';
import { Select } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import type { CostProjectOption } from '@zhyy/shared';
import { costOrderApi } from '../../api/cost';
import { COST_KEY } from './common';
import type { PickerProps } from '../common/DeptSelect';

// The department picker is shared with the other areas' filters (features/common/DeptSelect.tsx).
export { CostDeptSelect, deptTreeData, useCostDeptTree, type PickerProps } from '../common/DeptSelect';

export const projectLabel = (p: Pick<CostProjectOption, 'code' | 'name'>) => (p.code ? `${p.code} ${p.name}` : p.name);

/**
 * A project, searched on the server as the user types (code or name). `known` is the project already chosen
 * (an order being edited), so its label shows before any search.
 */
export function CostProjectSelect(props: PickerProps & { known?: CostProjectOption }) {
  const [keyword, setKeyword] = useState('');
  const [typed, setTyped] = useState('');
  useEffect(() => {
    const t = setTimeout(() => setKeyword(typed.trim()), 300);
    return () => clearTimeout(t);
  }, [typed]);
  const q = useQuery({ queryKey: [...COST_KEY, 'projects', keyword], queryFn: () => costOrderApi.projects(keyword || undefined), staleTime: 60_000 });
  // Remember the labels seen, so the chosen project keeps its label when a later search no longer lists it.
  const [seen, setSeen] = useState<Record<string, CostProjectOption>>({});
  useEffect(() => {
    if (q.data?.length) setSeen((s) => ({ ...s, ...Object.fromEntries(q.data.map((p) => [p.id, p])) }));
  }, [q.data]);
  const options = useMemo(() => {
    const list = [...(q.data ?? [])];
    const chosen = props.value ? (seen[props.value] ?? (props.known?.id === props.value ? props.known : undefined)) : undefined;
    if (chosen && !list.some((p) => p.id === chosen.id)) list.unshift(chosen);
    return list.map((p) => ({ value: p.id, label: projectLabel(p) }));
  }, [q.data, seen, props.value, props.known]);
  return (
    <Select
      id={props.id}
      value={props.value}
      onChange={(v: string | undefined) => props.onChange?.(v ?? undefined)}
      options={options}
      showSearch={{ filterOption: false, onSearch: setTyped }}
      loading={q.isFetching}
      allowClear={props.allowClear ?? true}
      placeholder={props.placeholder ?? '全部项目'}
      notFoundContent={q.isFetching ? '加载中…' : q.isError ? '项目列表暂不可用' : '没有匹配的项目'}
      style={props.style ?? { width: 200 }}
      aria-label={props['aria-label']}
      data-testid="cost-project-select"
    />
  );
}
