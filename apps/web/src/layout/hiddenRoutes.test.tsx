import '../test/dom';
import { render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { EMPTY_ID, matchRoute } from '@zhyy/shared';
import { documentTitle } from '../router/title';
import { Breadcrumb } from './Breadcrumb';
import { viewFor } from './useTrackView';

/** Issue 12 item 11: a hidden page names itself by what it does. */
describe('the new-user page is 新增用户, the edit page 编辑用户', () => {
  const NEW = `/system/edituser/${EMPTY_ID}`;
  const EDIT = '/system/edituser/3b1c6e9a-0000-4000-8000-000000000001';

  it('in its tag and the document title', () => {
    expect(viewFor(matchRoute(NEW)!.route, NEW, '').title).toBe('新增用户');
    expect(viewFor(matchRoute(EDIT)!.route, EDIT, '').title).toBe('编辑用户');
    expect(documentTitle(NEW)).toBe('新增用户 - 综合运营支撑平台');
    expect(documentTitle(`/system/dept-edit/${EMPTY_ID}`)).toBe('新增部门 - 综合运营支撑平台');
  });

  it('in its breadcrumb', () => {
    const { unmount } = render(
      <MemoryRouter initialEntries={[NEW]}>
        <Breadcrumb />
      </MemoryRouter>,
    );
    expect(screen.getByText('新增用户').getAttribute('aria-current')).toBe('page');
    expect(screen.queryByText('编辑用户')).toBeNull();
    unmount();
    render(
      <MemoryRouter initialEntries={[EDIT]}>
        <Breadcrumb />
      </MemoryRouter>,
    );
    expect(screen.getByText('编辑用户')).not.toBeNull();
  });
});
