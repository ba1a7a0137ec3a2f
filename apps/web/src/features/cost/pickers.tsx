/**
 * The department and project pickers of the cost pages (filters and the order editor). Departments come from
 * the organisation tree every signed-in user may read (/user/user-org-tree-list); projects from
 * /cost-order/projects, searched by code or name on the server: every cost page's project filter and the order
 * editor use CostProjectSelect (the one caller of that call).
 */
import { useQuery } from '@tanstack/react-query';
import { Select, TreeSelect, type TreeSelectProps } from 'antd';
import { useEffect, useMemo, useState, type CSSProperties } from 'react';
import type { CostProjectOption, DeptNode } from '@zhyy/shared';
import { costOrderApi } from '../../api/cost';
import { systemApi } from '../../api/system';
import { COST_KEY } from './common';

type TreeData = NonNullable<TreeSelectProps['treeData']>;
/** The organisation tree as TreeSelect data (the department filters and the auditors' departments). */
export const deptTreeData = (nodes: readonly DeptNode[]): TreeData => nodes.map((n) => ({ value: n.id, title: n.name, children: deptTreeData(n.children ?? []) }));

/** What both pickers take: a form control's value and change, and how it looks (an aria-label where no Form.Item label names it). */
interface PickerProps {
  value?: string;
  onChange?: (v: string | undefined) => void;
  placeholder?: string;
  style?: CSSProperties;
  allowClear?: boolean;
  id?: string;
  'aria-label'?: string;
}

export const useCostDeptTree = () => useQuery({ queryKey: [...COST_KEY, 'dept-tree'], queryFn: systemApi.orgTree, staleTime: 300_000 });

/** A department from the organisation tree (any level). */
export function CostDeptSelect(props: PickerProps) {
  const tree = useCostDeptTree();
  const data = useMemo(() => deptTreeData(tree.data ?? []), [tree.data]);
  return (
    <TreeSelect
      id={props.id}
      value={props.value}
      onChange={(v) => props.onChange?.(v ?? undefined)}
      treeData={data}
      loading={tree.isLoading}
      treeDefaultExpandAll
      showSearch={{ treeNodeFilterProp: 'title' }}
      allowClear={props.allowClear ?? true}
      placeholder={props.placeholder ?? '全部部门'}
      notFoundContent={tree.isLoading ? '加载中…' : '没有部门'}
      style={props.style ?? { width: 180 }}
      aria-label={props['aria-label']}
      data-testid="cost-dept-select"
    />
  );
}

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
