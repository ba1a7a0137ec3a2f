/**
 * Where a sticky table header must stop under the chrome: below the navbar and the main header
 * (tag bar, breadcrumbs) when the header is fixed, at the top otherwise. Measured again when the
 * settings that change the chrome (fixed header, tag bar) change.
 */
import { useLayoutEffect, useState } from 'react';
import { useSettings } from '../stores/settings';

export function useStickyTop(): number {
  const fixedHeader = useSettings((s) => s.fixedHeader);
  const tagsView = useSettings((s) => s.tagsView);
  const [top, setTop] = useState(0);
  useLayoutEffect(() => {
    const header = fixedHeader ? document.querySelector('.fixed-header .main-header') : null;
    setTop(header ? Math.max(0, Math.round(header.getBoundingClientRect().bottom)) : 0);
  }, [fixedHeader, tagsView]);
  return top;
}
