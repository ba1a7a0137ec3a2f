import { Breadcrumb as AntBreadcrumb } from 'antd';
import { Link, useLocation } from 'react-router';
import { matchRoute } from '@zhyy/shared';
import { DASHBOARD_PATH } from '../router/guard';

/** Breadcrumbs from the route titles: 工作台, then the module, its sub-group and the page. */
export function Breadcrumb() {
  const { pathname } = useLocation();
  const match = matchRoute(pathname.replace(/^\/redirect(?=\/)/, ''));
  const crumbs = (match?.route.crumbs ?? []).filter((c) => c.path !== DASHBOARD_PATH);
  const items = [
    { key: 'home', title: crumbs.length ? <Link to={DASHBOARD_PATH}>工作台</Link> : <span aria-current="page">工作台</span> },
    ...crumbs.map((c, i) => ({ key: c.path, title: i === crumbs.length - 1 ? <span aria-current="page">{c.title}</span> : c.title })),
  ];
  return <AntBreadcrumb className="app-breadcrumb" items={items} aria-label="面包屑" />;
}
