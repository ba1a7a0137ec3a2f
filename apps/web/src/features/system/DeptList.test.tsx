import '../../test/dom';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import type { DeptNode } from '@zhyy/shared';

const node = (id: string, name: string, parentId: string | null, children: DeptNode[] = []): DeptNode => ({ id, parentId, name, sort: 0, managerId: null, managerName: '', memberCount: 1, totalCount: 1, children });
const TREE = [node('r', '华建工程', null, [node('a', '财务部', 'r', [node('a1', '核算组', 'a')]), node('b', '工程部', 'r')])];

vi.mock('../../api/system', () => ({ systemApi: { deptTree: () => Promise.resolve(TREE), deleteDept: vi.fn() } }));

import DeptList from './DeptList';

describe('部门管理 (issue 12 item 22)', () => {
  it('opens with the whole tree expanded, not collapsed to the root', { timeout: 30_000 }, async () => {
    render(
      <QueryClientProvider client={new QueryClient()}>
        <MemoryRouter>
          <DeptList />
        </MemoryRouter>
      </QueryClientProvider>,
    );
    expect(await screen.findByText('工程部', undefined, { timeout: 10_000 })).not.toBeNull();
    expect(screen.getByText('核算组')).not.toBeNull();
  });
});
