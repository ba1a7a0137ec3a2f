/**
 * Small pieces 待审核成本单, 月度成本汇总 and 成本设置 share: the query key root, the state tag, labels, the
 * month helpers, the department tree picker, the project choices seen in answers, the link to 成本单台账
 * with filters, reading an upload as base64. (The ledger's features/cost/common.tsx has overlapping ones;
 * the two are to be merged into one module.)
 */
import { useQuery } from '@tanstack/react-query';
import { Tag, TreeSelect, type TreeSelectProps } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useMemo, useRef } from 'react';
import { CostCategory, CostOrderSource, CostOrderState, shanghaiMonthOf, shiftMonth, type DeptNode } from '@zhyy/shared';
import { costPagesApi } from '../../api/costPages';

/** The root of every cost query key: a change on one cost page refreshes the others' lists. */
export const COST_KEY = ['cost'] as const;
export const LEDGER_PATH = '/cost-management/account';

const STATE_COLOURS: Record<number, string> = { [CostOrderState.toAudit]: 'processing', [CostOrderState.audited]: 'success', [CostOrderState.invalid]: 'default' };

export function OrderStateTag({ state }: { state: number }) {
  return <Tag color={STATE_COLOURS[state] ?? 'default'}>{CostOrderState.label(state)}</Tag>;
}

export const sourceLabel = (source: string) => CostOrderSource.label(source);
export const categoryLabel = (category: string) => CostCategory.label(category);
export const SOURCE_OPTIONS = CostOrderSource.options.map((o) => ({ value: o.value, label: o.label }));
export const CATEGORY_OPTIONS = CostCategory.options.map((o) => ({ value: o.value, label: o.label }));

/** A tax rate as stored ('0.06') → '6%'. */
export function rateText(rate: string | number): string {
  const n = Number(rate);
  return Number.isFinite(n) ? `${Number((n * 100).toFixed(4))}%` : String(rate);
}

/** The current month (Asia/Shanghai), 'YYYY-MM'. */
export const thisMonth = (now: Date = new Date()) => shanghaiMonthOf(now);
/** 'YYYY-MM' → a month picker's value, and back. */
export const monthDay = (month: string): Dayjs => dayjs(`${month}-01`);
export const monthOf = (d: Dayjs | null | undefined): string | undefined => (d ? d.format('YYYY-MM') : undefined);
/** The last `n` months up to this one: [from, to]. */
export function lastMonths(n: number, now: Date = new Date()): [string, string] {
  const to = thisMonth(now);
  return [shiftMonth(to, -(n - 1)), to];
}
/** Every month from `from` to `to`, both included. */
export function monthsBetween(from: string, to: string): string[] {
  const out: string[] = [];
  for (let m = from; m <= to && out.length < 600; m = shiftMonth(m, 1)) out.push(m);
  return out;
}

/** 元 (from an InputNumber) → 分; undefined for none. */
export function yuanToFen(v: number | null | undefined): number | undefined {
  return v === null || v === undefined || !Number.isFinite(v) ? undefined : Math.round(v * 100);
}

/** Drops the empty fields of a request. */
export function compact(o: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined && v !== null && v !== ''));
}

/** 成本单台账 with its filters in the address (the ledger reads monthFrom, monthTo, deptId, projectId, orderNo, state). */
export function ledgerPath(filters: { monthFrom?: string; monthTo?: string; deptId?: string; projectId?: string; orderNo?: string; state?: number }): string {
  const q = new URLSearchParams(Object.entries(filters).filter(([, v]) => v !== undefined && v !== '').map(([k, v]) => [k, String(v)]));
  const s = q.toString();
  return s ? `${LEDGER_PATH}?${s}` : LEDGER_PATH;
}

export const useDeptTree = () => useQuery({ queryKey: [...COST_KEY, 'dept-tree'], queryFn: costPagesApi.deptTree, staleTime: 300_000 });

type TreeData = NonNullable<TreeSelectProps['treeData']>;
export function deptTreeData(nodes: readonly DeptNode[]): TreeData {
  return nodes.map((n) => ({ value: n.id, title: n.name, children: deptTreeData(n.children ?? []) }));
}

/** Every department of the tree by id (names for the auditors' assignments). */
export function deptNames(nodes: readonly DeptNode[], out = new Map<string, string>()): Map<string, string> {
  for (const n of nodes) {
    out.set(n.id, n.name);
    deptNames(n.children ?? [], out);
  }
  return out;
}

/** One department, from the tree (any signed-in user reads it). */
export function DeptPicker(props: { value?: string; onChange?: (v: string | undefined) => void; style?: React.CSSProperties; placeholder?: string; id?: string }) {
  const tree = useDeptTree();
  return (
    <TreeSelect
      id={props.id}
      value={props.value}
      onChange={(v) => props.onChange?.(v ?? undefined)}
      treeData={deptTreeData(tree.data ?? [])}
      loading={tree.isLoading}
      treeDefaultExpandAll
      showSearch={{ treeNodeFilterProp: 'title' }}
      allowClear
      placeholder={props.placeholder ?? '全部部门'}
      style={props.style ?? { width: 180 }}
      aria-label="部门"
    />
  );
}

/**
 * The projects met in the answers so far (there is no project list the cost roles may read): the filter's
 * choices grow as lists and summaries come back, and a chosen project stays among them.
 */
export function useSeenProjects(rows: ReadonlyArray<{ projectId: string; projectName: string; projectCode?: string }> | undefined) {
  const seen = useRef(new Map<string, string>());
  return useMemo(() => {
    for (const r of rows ?? []) if (r.projectId) seen.current.set(r.projectId, r.projectCode ? `${r.projectCode} ${r.projectName}` : r.projectName);
    return [...seen.current].map(([value, label]) => ({ value, label })).sort((a, b) => a.label.localeCompare(b.label, 'zh-CN'));
  }, [rows]);
}

/** A chosen file as base64 (no data: prefix). */
export function readBase64(file: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const r = new FileReader();
    r.onload = () => resolve(String(r.result).replace(/^data:[^,]*,/, ''));
    r.onerror = () => reject(r.error ?? new Error('读取文件失败'));
    r.readAsDataURL(file);
  });
}
