import { AppstoreOutlined, ProjectOutlined } from '@ant-design/icons';
import { Badge } from 'antd';
import { navbarBadgeText } from '@zhyy/shared';
import { publicConfig } from '../api/config';
import { useBadges } from '../stores/badges';

/** Links to the office-automation and project-management systems, each with its pending count (9+, hidden at 0). */
export function SisterLinks({ compact }: { compact: boolean }) {
  const oaTodo = useBadges((s) => s.oaTodo);
  const pmsTodo = useBadges((s) => s.pmsTodo);
  const cfg = publicConfig();
  const links = [
    { id: 'oa', name: cfg.oaName, url: cfg.oaUrl, count: oaTodo, icon: <AppstoreOutlined /> },
    { id: 'pms', name: cfg.pmsName, url: cfg.pmsUrl, count: pmsTodo, icon: <ProjectOutlined /> },
  ];
  return (
    <>
      {links.map((l) => {
        const text = navbarBadgeText(l.count);
        return (
          <a
            key={l.id}
            title={l.name}
            className="sister-link"
            href={l.url || undefined}
            target="_blank"
            rel="noopener noreferrer"
            aria-label={text ? `${l.name}（${text}项待办）` : l.name}
            data-testid={`${l.id}-link`}
          >
            {/* The name stays on every desktop width (an icon alone says nothing); the count follows the
                name inline instead of sitting on the icon. */}
            <span className="sister-link-label">
              {l.icon}
              {compact ? null : <span className="sister-link-name">{l.name}</span>}
              <Badge count={text} size="small" className="sister-link-badge" data-testid={`${l.id}-badge`} />
            </span>
          </a>
        );
      })}
    </>
  );
}
