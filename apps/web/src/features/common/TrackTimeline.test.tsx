import '../../test/dom';
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { TrackEntry } from '@zhyy/shared';
import { TrackTimeline } from './TrackTimeline';

const entry = (over: Partial<TrackEntry>): TrackEntry =>
  ({ id: '1', action: 'cc', actionName: '抄送', nodeName: '财务抄送', actorName: '系统', deptName: '', opinion: '', toNodeName: '', toNames: '', createdAt: '2026-11-22T02:00:00.000Z', ...over }) as TrackEntry;

describe('track timeline (issue 12 item 12)', () => {
  it('names the node of a 抄送 step that has no next node: never "→ ： 马超"', () => {
    render(<TrackTimeline track={[entry({ toNames: '马超' }), entry({ id: '2', action: 'send', actionName: '提交', nodeName: '申请人', actorName: '张三', toNodeName: '部门经理审批', toNames: '李四' })]} />);
    const targets = screen.getAllByTestId('track-target').map((t) => t.textContent?.trim());
    expect(targets).toEqual(['→ 财务抄送：马超', '→ 部门经理审批：李四']);
    expect(document.body.textContent).not.toContain('→ ：');
  });

  it('the end step reads 流程结束 once, never "流程结束结束" (issue 31 #6)', () => {
    render(<TrackTimeline track={[entry({ id: '3', action: 'complete', actionName: '流程结束', nodeName: '结束', actorName: '马超' })]} />);
    expect(document.body.textContent).toContain('流程结束');
    expect(document.body.textContent).not.toContain('流程结束结束');
  });
});
