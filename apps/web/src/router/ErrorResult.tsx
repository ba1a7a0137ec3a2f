import './routeError.css';

/**
 * An error in antd's Result look (status="error"), in plain markup: antd's Result carries three large
 * illustrations (404, 403, 500) that the shell never shows, and a route error sits outside antd's
 * providers and must show even when a chunk could not be downloaded.
 */
export function ErrorResult({ title, detail, action, onAction }: { title: string; detail: string; action: string; onAction: () => void }) {
  return (
    <div className="route-error" role="alert">
      <svg className="route-error-icon" viewBox="64 64 896 896" width="72" height="72" fill="currentColor" aria-hidden="true">
        <path d="M512 64C264.6 64 64 264.6 64 512s200.6 448 448 448 448-200.6 448-448S759.4 64 512 64zm165.4 618.2l-66-.3L512 563.4l-99.3 118.4-66.1.3c-4.4 0-8-3.5-8-8 0-1.9.7-3.7 1.9-5.2l130.1-155L340.5 359a8.32 8.32 0 01-1.9-5.2c0-4.4 3.6-8 8-8l66.1.3L512 464.6l99.3-118.4 66-.3c4.4 0 8 3.5 8 8 0 1.9-.7 3.7-1.9 5.2L553.5 514l130 155c1.2 1.5 1.9 3.3 1.9 5.2 0 4.4-3.6 8-8 8z" />
      </svg>
      <div className="route-error-title">{title}</div>
      <div className="route-error-subtitle">{detail}</div>
      <button type="button" className="route-error-button" onClick={onAction}>
        {action}
      </button>
    </div>
  );
}
