/**
 * Pure workflow rules both sides use: condition evaluation, route choice and the static check of a
 * flow definition (one start, reachable end, every route pointing at a known node).
 */
import { START_NODE_ID, type Condition, type FlowDefinition, type FormValues, type NodeDef, type FlowRoute } from './workflow.js';

function asNumber(v: unknown): number | null {
  if (typeof v === 'number' && Number.isFinite(v)) return v;
  if (typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v))) return Number(v);
  return null;
}

/** Whether a condition holds for the form values. A missing or non-numeric value fails numeric comparisons. */
export function evaluateCondition(cond: Condition, values: FormValues): boolean {
  if ('all' in cond) return cond.all.every((c) => evaluateCondition(c, values));
  if ('any' in cond) return cond.any.some((c) => evaluateCondition(c, values));
  const actual = values[cond.field];
  switch (cond.op) {
    case 'eq':
      return String(actual ?? '') === String(cond.value);
    case 'ne':
      return String(actual ?? '') !== String(cond.value);
    case 'in':
      return Array.isArray(cond.value) && cond.value.map(String).includes(String(actual ?? ''));
    default: {
      const a = asNumber(actual);
      const b = asNumber(cond.value);
      if (a === null || b === null) return false;
      if (cond.op === 'gt') return a > b;
      if (cond.op === 'gte') return a >= b;
      if (cond.op === 'lt') return a < b;
      return a <= b;
    }
  }
}

/** The route taken from a node: the first whose condition holds, else the default (no condition). */
export function pickRoute(node: NodeDef, values: FormValues): FlowRoute | null {
  for (const r of node.next) if (r.when && evaluateCondition(r.when, values)) return r;
  return node.next.find((r) => !r.when) ?? null;
}

/** Problems of a definition (empty when it is usable). Messages are Chinese: templates are edited by people. */
export function checkDefinition(def: FlowDefinition): string[] {
  const problems: string[] = [];
  const ids = new Set<string>();
  for (const n of def.nodes) {
    if (ids.has(n.id)) problems.push(`节点编号重复：${n.id}`);
    ids.add(n.id);
  }
  const starts = def.nodes.filter((n) => n.type === 'start');
  if (starts.length !== 1) problems.push('流程必须有且只有一个开始节点');
  else if (starts[0]!.id !== START_NODE_ID) problems.push(`开始节点的编号必须是 ${START_NODE_ID}`);
  if (!def.nodes.some((n) => n.type === 'end')) problems.push('流程必须有结束节点');
  for (const n of def.nodes) {
    if (n.type !== 'end' && !n.next.some((r) => !r.when)) problems.push(`节点「${n.name}」缺少默认走向`);
    for (const r of n.next) if (!ids.has(r.to)) problems.push(`节点「${n.name}」指向不存在的节点 ${r.to}`);
    if ((n.type === 'approval' || n.type === 'cc') && !n.handler) problems.push(`节点「${n.name}」未设置处理人`);
  }
  const keys = new Set<string>();
  for (const f of def.form) {
    if (keys.has(f.key)) problems.push(`表单字段重复：${f.key}`);
    keys.add(f.key);
    if (f.type === 'table' && !f.columns?.length) problems.push(`明细表「${f.label}」没有列`);
    if (f.type === 'select' && !f.options?.length) problems.push(`下拉字段「${f.label}」没有选项`);
  }
  // Every node must reach an end node through its routes (no dead ends, no endless loops only).
  const byId = new Map(def.nodes.map((n) => [n.id, n]));
  const reachesEnd = new Map<string, boolean>();
  const visit = (id: string, stack: Set<string>): boolean => {
    const known = reachesEnd.get(id);
    if (known !== undefined) return known;
    const node = byId.get(id);
    if (!node || stack.has(id)) return false;
    if (node.type === 'end') return true;
    stack.add(id);
    const ok = node.next.some((r) => visit(r.to, stack));
    stack.delete(id);
    reachesEnd.set(id, ok);
    return ok;
  };
  for (const n of def.nodes) if (n.type !== 'end' && !visit(n.id, new Set())) problems.push(`节点「${n.name}」无法到达结束节点`);
  return problems;
}

/** Money in 分 shown as 元 with two decimals and thousands separators. */
export function formatFen(fen: number | null | undefined): string {
  if (fen === null || fen === undefined || !Number.isFinite(fen)) return '';
  const sign = fen < 0 ? '-' : '';
  const abs = Math.abs(Math.round(fen));
  const yuan = Math.floor(abs / 100).toLocaleString('en-US');
  return `${sign}${yuan}.${String(abs % 100).padStart(2, '0')}`;
}

/** Minutes between two ISO times, rounded up to a whole minute (0 when not finished). */
export function minutesBetween(from: string, to: string | null | undefined): number {
  if (!to) return 0;
  return Math.max(0, Math.ceil((Date.parse(to) - Date.parse(from)) / 60000));
}

/** A duration in minutes as 天/小时/分钟 text. */
export function durationText(minutes: number): string {
  if (minutes <= 0) return '不足1分钟';
  const d = Math.floor(minutes / 1440);
  const h = Math.floor((minutes % 1440) / 60);
  const m = minutes % 60;
  return [d ? `${d}天` : '', h ? `${h}小时` : '', m ? `${m}分钟` : ''].join('');
}
