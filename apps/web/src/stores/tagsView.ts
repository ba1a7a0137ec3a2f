/** SPEC section 4 "Views": visited views per path; a shared tagName replaces; affix views survive close-all. */
import { create } from 'zustand';

export interface VisitedView {
  /** The pathname: one view per path. */
  path: string;
  /** Path plus query, to return to exactly where the user was. */
  fullPath: string;
  title: string;
  /** The route pattern of the shared table. */
  pattern: string;
  tagName?: string;
  affix: boolean;
  noCache: boolean;
}

export interface TagsViewState {
  visitedViews: VisitedView[];
  /** Bumped by 刷新: a view remounts when its key changes. */
  refreshKeys: Record<string, number>;
  addView(view: VisitedView): void;
  /** Returns false for an affix view, which cannot be closed. */
  closeView(path: string): boolean;
  closeOthers(path: string): void;
  closeAll(): void;
  refreshView(path: string): void;
  /** Logout: every view goes, affix ones included. */
  reset(): void;
}

export function addVisited(views: readonly VisitedView[], view: VisitedView): VisitedView[] {
  const same = views.findIndex((v) => v.path === view.path);
  if (same >= 0) return views.map((v, i) => (i === same ? { ...v, fullPath: view.fullPath, title: view.title } : v));
  const sibling = view.tagName ? views.findIndex((v) => v.tagName === view.tagName) : -1;
  if (sibling >= 0) return views.map((v, i) => (i === sibling ? view : v));
  return view.affix ? [...views.filter((v) => v.affix), view, ...views.filter((v) => !v.affix)] : [...views, view];
}

export const useTagsView = create<TagsViewState>()((set, get) => ({
  visitedViews: [],
  refreshKeys: {},
  addView: (view) => set((s) => ({ visitedViews: addVisited(s.visitedViews, view) })),
  closeView(path) {
    const view = get().visitedViews.find((v) => v.path === path);
    if (!view || view.affix) return false;
    set((s) => ({ visitedViews: s.visitedViews.filter((v) => v.path !== path) }));
    return true;
  },
  closeOthers: (path) => set((s) => ({ visitedViews: s.visitedViews.filter((v) => v.affix || v.path === path) })),
  closeAll: () => set((s) => ({ visitedViews: s.visitedViews.filter((v) => v.affix) })),
  refreshView: (path) => set((s) => ({ refreshKeys: { ...s.refreshKeys, [path]: (s.refreshKeys[path] ?? 0) + 1 } })),
  reset: () => set({ visitedViews: [], refreshKeys: {} }),
}));
