/**
 * A department from the organisation tree every signed-in user may read (/user/user-org-tree-list): the
 * department filters of the cost pages and of 投标管理's personnel list.
 */
import { useQuery } from '@tanstack/react-query';
import { TreeSelect, type TreeSelectProps } from 'antd';
import { useMemo, type CSSProperties } from 'react';
import type { DeptNode } from '@zhyy/shared';
import { systemApi } from '../../api/system';

type TreeData = NonNullable<TreeSelectProps['treeData']>;
/** The organisation tree as TreeSelect data (the department filters and the auditors' departments). */
export const deptTreeData = (nodes: readonly DeptNode[]): TreeData => nodes.map((n) => ({ value: n.id, title: n.name, children: deptTreeData(n.children ?? []) }));

/** What both pickers take: a form control's value and change, and how it looks (an aria-label where no Form.Item label names it). */
export interface PickerProps {
  value?: string;
  onChange?: (v: string | undefined) => void;
  placeholder?: string;
  style?: CSSProperties;
  allowClear?: boolean;
  id?: string;
  'aria-label'?: string;
}

// The cost area's key (['cost', …]): the cost pages' invalidations reach it, as before it moved here.
export const useCostDeptTree = () => useQuery({ queryKey: ['cost', 'dept-tree'], queryFn: systemApi.orgTree, staleTime: 300_000 });

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
