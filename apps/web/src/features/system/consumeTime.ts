/**
 * The to-do waiting-time report: the workflow service lists to-do items with the minutes each
 * waited; this groups them per flow, node or handler into count, average, median, longest and
 * overdue (waited longer than the chosen limit).
 */
import type { ConsumeTimeItem } from '@zhyy/shared';
import { isUnreachable } from '../../api/errors';
import { systemApi } from '../../api/system';

export type ConsumeGroup = 'flow' | 'node' | 'handler';

export interface ConsumeStat {
  key: string;
  flowName: string;
  nodeName: string;
  handlerName: string;
  count: number;
  /** Items still waiting. */
  open: number;
  avgMinutes: number;
  medianMinutes: number;
  maxMinutes: number;
  overdue: number;
}

export function median(sorted: number[]): number {
  if (!sorted.length) return 0;
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : Math.round((sorted[mid - 1]! + sorted[mid]!) / 2);
}

export function aggregateConsumeTime(items: ConsumeTimeItem[], groupBy: ConsumeGroup, overdueMinutes: number): ConsumeStat[] {
  const groups = new Map<string, { first: ConsumeTimeItem; minutes: number[]; open: number }>();
  for (const it of items) {
    const key = groupBy === 'flow' ? it.FlowName : groupBy === 'node' ? `${it.FlowName}\u0000${it.NodeName}` : `${it.FlowName}\u0000${it.NodeName}\u0000${it.HandlerName}`;
    const g = groups.get(key) ?? { first: it, minutes: [], open: 0 };
    g.minutes.push(Math.max(0, it.Minutes));
    if (!it.DoneAt) g.open++;
    groups.set(key, g);
  }
  return [...groups.entries()]
    .map(([key, g]) => {
      const sorted = [...g.minutes].sort((a, b) => a - b);
      return {
        key,
        flowName: g.first.FlowName,
        nodeName: groupBy === 'flow' ? '' : g.first.NodeName,
        handlerName: groupBy === 'handler' ? g.first.HandlerName : '',
        count: sorted.length,
        open: g.open,
        avgMinutes: Math.round(sorted.reduce((a, b) => a + b, 0) / sorted.length),
        medianMinutes: median(sorted),
        maxMinutes: sorted[sorted.length - 1] ?? 0,
        overdue: sorted.filter((m) => m > overdueMinutes).length,
      };
    })
    .sort((a, b) => b.avgMinutes - a.avgMinutes || a.key.localeCompare(b.key));
}

/** 2天3小时 / 5小时20分钟 / 12分钟 */
export function minutesText(minutes: number): string {
  if (minutes < 1) return '不足1分钟';
  const d = Math.floor(minutes / 1440);
  const h = Math.floor((minutes % 1440) / 60);
  const m = minutes % 60;
  if (d) return `${d}天${h ? `${h}小时` : ''}`;
  if (h) return `${h}小时${m ? `${m}分钟` : ''}`;
  return `${m}分钟`;
}

/** The outcome of asking the workflow service: figures, not there yet (404), or not reachable. */
export type ConsumeFetch = { kind: 'ok'; items: ConsumeTimeItem[]; truncated: boolean } | { kind: 'unavailable'; reason: 'missing' | 'error' | 'refused'; message: string };

const PAGE = 500;
const MAX_PAGES = 20;

export async function fetchConsumeTime(from: string, to: string): Promise<ConsumeFetch> {
  const items: ConsumeTimeItem[] = [];
  try {
    for (let pageIndex = 1; pageIndex <= MAX_PAGES; pageIndex++) {
      const page = await systemApi.consumeTime({ pageIndex, pageSize: PAGE, from, to });
      items.push(...(page?.items ?? []));
      if (!page || items.length >= page.total || (page.items ?? []).length < PAGE) return { kind: 'ok', items, truncated: false };
    }
    return { kind: 'ok', items, truncated: true };
  } catch (e) {
    const status = (e as { status?: number }).status;
    return status === 404
      ? { kind: 'unavailable', reason: 'missing', message: '工作流服务尚未提供待办耗时数据' }
      : { kind: 'unavailable', reason: isUnreachable(e) ? 'error' : 'refused', message: e instanceof Error ? e.message : '工作流服务暂时无法连接' };
  }
}
