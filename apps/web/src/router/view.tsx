/** The view a page is rendered for: cached views keep their own path and parameters while hidden. */
import { createContext, useContext } from 'react';
import type { FlatRoute } from '@zhyy/shared';

export interface ViewInfo {
  path: string;
  fullPath: string;
  search: string;
  params: Record<string, string>;
  route: FlatRoute;
  active: boolean;
}

export const ViewContext = createContext<ViewInfo | null>(null);

export function useView(): ViewInfo {
  const view = useContext(ViewContext);
  if (!view) throw new Error('useView must be used inside a view of AppMain');
  return view;
}
