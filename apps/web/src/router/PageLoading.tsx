/** A full-screen 加载中 spinner in plain markup (router/pageLoading.css): shown before antd is loaded. */
import './pageLoading.css';

export function PageLoading() {
  return (
    <div className="page-loading" role="status" aria-live="polite">
      <span className="page-loading-dot" aria-hidden="true" />
      <span className="page-loading-text">加载中…</span>
    </div>
  );
}
