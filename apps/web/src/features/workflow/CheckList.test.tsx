import '../../test/dom';
import { render, screen, waitFor } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { describe, expect, it, vi } from 'vitest';

const checklist = vi.hoisted(() =>
  vi.fn(() =>
    Promise.resolve([
      { nodeId: 'mgr', nodeName: '部门负责人审批', actorName: '张伟', deptName: '市场经营部', opinion: '<b>同意</b>', action: 'send', actionName: '同意', createdAt: '2026-11-20T02:00:00.000Z' },
      { nodeId: 'gm', nodeName: '总经理审批', actorName: '王强', deptName: '总经理办公室', opinion: '', action: 'return', actionName: '退回', createdAt: '2026-11-20T03:00:00.000Z' },
    ]),
  ),
);
vi.mock('../../api/workflow', () => ({ wfApi: { checklist } }));
const { CheckList } = await import('./CheckList');

describe('CheckList (workchecklist)', () => {
  it('shows each node’s opinion as text, from the workflow service', async () => {
    const { container } = render(
      <QueryClientProvider client={new QueryClient()}>
        <CheckList workId={42} version={1} />
      </QueryClientProvider>,
    );
    await waitFor(() => expect(screen.getByText('部门负责人审批')).toBeTruthy());
    expect(checklist).toHaveBeenCalledWith(42);
    expect(screen.getByText('<b>同意</b>')).toBeTruthy();
    expect(container.querySelector('td b')).toBeNull();
    expect(screen.getByText('王强（总经理办公室）')).toBeTruthy();
    expect(screen.getByText('—')).toBeTruthy();
  });
});
