/** SPEC section 2: the page title is the route title plus the product title. */
import { PRODUCT_TITLE, matchRoute } from '@zhyy/shared';

const PUBLIC_TITLES: Record<string, string> = {
  '/login': '登录',
  '/404': '页面不存在',
  '/auth-redirect': '登录跳转',
};

export function titleFor(pathname: string): string {
  if (pathname.startsWith('/file/view/')) return '文件预览';
  return PUBLIC_TITLES[pathname] ?? matchRoute(pathname)?.route.title ?? '';
}

export function documentTitle(pathname: string): string {
  const title = titleFor(pathname);
  return title ? `${title} - ${PRODUCT_TITLE}` : PRODUCT_TITLE;
}
