import { useEffect } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { useTagsView } from '../../stores/tagsView';

/** /redirect/<path>: re-renders the target page (a fresh mount) without touching the menu or the tags. */
export default function RedirectPage() {
  const { pathname, search } = useLocation();
  const navigate = useNavigate();
  useEffect(() => {
    const target = pathname.slice('/redirect'.length) || '/';
    useTagsView.getState().refreshView(target);
    void navigate(target + search, { replace: true });
  }, [pathname, search, navigate]);
  return null;
}
