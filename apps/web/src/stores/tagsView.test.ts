import { beforeEach, describe, expect, it } from 'vitest';
import { addVisited, useTagsView, type VisitedView } from './tagsView';

const view = (path: string, extra: Partial<VisitedView> = {}): VisitedView => ({
  path,
  fullPath: path,
  title: path.slice(1),
  pattern: path,
  affix: false,
  noCache: false,
  ...extra,
});
const dashboard = view('/dashboard', { title: '工作台', affix: true });
const paths = () => useTagsView.getState().visitedViews.map((v) => v.path);

describe('tagsView store (SPEC section 4 "Views")', () => {
  beforeEach(() => useTagsView.getState().reset());

  it('keeps one view per path and updates its query', () => {
    const s = useTagsView.getState();
    s.addView(view('/a'));
    s.addView(view('/a', { fullPath: '/a?page=2' }));
    expect(paths()).toEqual(['/a']);
    expect(useTagsView.getState().visitedViews[0]!.fullPath).toBe('/a?page=2');
  });

  it('a view sharing a tagName replaces the other in place', () => {
    const s = useTagsView.getState();
    s.addView(view('/x'));
    s.addView(view('/detail/1', { tagName: 'invoice-detail' }));
    s.addView(view('/y'));
    s.addView(view('/detail/2', { tagName: 'invoice-detail' }));
    expect(paths()).toEqual(['/x', '/detail/2', '/y']);
  });

  it('affix views go first, cannot be closed and survive close-all', () => {
    const s = useTagsView.getState();
    s.addView(view('/a'));
    s.addView(dashboard);
    s.addView(view('/b'));
    expect(paths()).toEqual(['/dashboard', '/a', '/b']);
    expect(s.closeView('/dashboard')).toBe(false);
    expect(paths()).toContain('/dashboard');
    s.closeAll();
    expect(paths()).toEqual(['/dashboard']);
  });

  it('close removes one view; close others keeps affix and the chosen one', () => {
    const s = useTagsView.getState();
    [dashboard, view('/a'), view('/b'), view('/c')].forEach(s.addView);
    expect(s.closeView('/b')).toBe(true);
    expect(paths()).toEqual(['/dashboard', '/a', '/c']);
    s.closeOthers('/c');
    expect(paths()).toEqual(['/dashboard', '/c']);
  });

  it('refresh bumps the key of one view only', () => {
    const s = useTagsView.getState();
    s.refreshView('/a');
    s.refreshView('/a');
    s.refreshView('/b');
    expect(useTagsView.getState().refreshKeys).toEqual({ '/a': 2, '/b': 1 });
  });

  it('reset (logout) drops every view, affix included', () => {
    const s = useTagsView.getState();
    s.addView(dashboard);
    s.addView(view('/a'));
    s.reset();
    expect(paths()).toEqual([]);
  });

  it('addVisited is pure', () => {
    const before = [view('/a')];
    const after = addVisited(before, view('/b'));
    expect(before).toHaveLength(1);
    expect(after.map((v) => v.path)).toEqual(['/a', '/b']);
  });
});
