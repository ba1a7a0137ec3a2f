/**
 * SPEC section 4 "Notification tracking": each workflow id is alerted once per login name (local
 * storage), and the notifications are staggered in 200 ms steps.
 */
import { NOTIFICATION_STAGGER_MS } from '@zhyy/shared';
import type { WorkflowTodoItem } from '../api/live';
import { readJson, writeJson } from '../utils/storage';

/** How many alerted ids are remembered per login name. */
const MAX_REMEMBERED = 500;
/** At most this many notifications a round (e.g. the first sign-in with a full to-do list); the rest is one summary. */
export const MAX_ALERTS_PER_ROUND = 5;

export const alertedKey = (loginName: string) => `zhyy-alerted-work-ids:${loginName}`;

/** The items not yet alerted for this login name, and the remembered ids including them. */
export function pickNewItems(items: readonly WorkflowTodoItem[], alerted: readonly string[]): { fresh: WorkflowTodoItem[]; remembered: string[] } {
  const seen = new Set(alerted);
  const fresh: WorkflowTodoItem[] = [];
  for (const item of items) {
    const id = String(item.WorkID);
    if (seen.has(id)) continue;
    seen.add(id);
    fresh.push(item);
  }
  return { fresh, remembered: [...seen].slice(-MAX_REMEMBERED) };
}

/**
 * Raises one notification per new item, item i after i x 200 ms, up to MAX_ALERTS_PER_ROUND; any
 * further new items are told in one summary after them. Returns how many items were new.
 */
export function alertNewItems(
  loginName: string,
  items: readonly WorkflowTodoItem[],
  notify: (item: WorkflowTodoItem) => void,
  schedule: (fn: () => void, ms: number) => unknown = setTimeout,
  summarise?: (more: number) => void,
): number {
  if (!loginName) return 0;
  const { fresh, remembered } = pickNewItems(items, readJson<string[]>(alertedKey(loginName), []));
  writeJson(alertedKey(loginName), remembered);
  const shown = fresh.slice(0, MAX_ALERTS_PER_ROUND);
  shown.forEach((item, i) => schedule(() => notify(item), i * NOTIFICATION_STAGGER_MS));
  const more = fresh.length - shown.length;
  if (more > 0 && summarise) schedule(() => summarise(more), shown.length * NOTIFICATION_STAGGER_MS);
  return fresh.length;
}
