/** The track of a workflow instance (an approval's, a reimbursement bill's) as a timeline: time, person, department, action, opinion, where it went. */
import { Tag, Timeline, Typography } from 'antd';
import { formatShanghai, type TrackEntry } from '@zhyy/shared';

/** An instant as YYYY-MM-DD HH:mm in Asia/Shanghai, like every other time shown. */
const formatTime = (iso: string | null | undefined): string => formatShanghai(iso, 'YYYY-MM-DD HH:mm');

const COLOURS: Record<string, string> = { start: 'blue', send: 'green', complete: 'green', return: 'red', adminDelete: 'red', delete: 'red', shift: 'orange', adminShift: 'orange', undo: 'gray', withdraw: 'gray', press: 'purple', cc: 'cyan', save: 'gray' };

/**
 * Where a step went: the node and the people there. A step that names people but no next node (a 抄送 stays at
 * its node) goes to its own node, so the line never reads "→ ： 马超".
 */
export function target(e: Pick<TrackEntry, 'nodeName' | 'toNodeName' | 'toNames'>): string {
  const node = e.toNodeName || e.nodeName;
  if (!e.toNames) return node;
  return node ? `${node}：${e.toNames}` : e.toNames;
}

export function TrackTimeline({ track }: { track: TrackEntry[] }) {
  if (!track.length) return <Typography.Text type="secondary">暂无记录</Typography.Text>;
  return (
    <Timeline
      data-testid="track"
      items={track.map((e) => ({
        key: e.id,
        color: COLOURS[e.action] ?? 'blue',
        content: (
          <div className="wf-track-item">
            <div>
              <Typography.Text type="secondary">{formatTime(e.createdAt)}</Typography.Text>
              <Tag color={COLOURS[e.action]} style={{ marginLeft: 8 }}>
                {e.actionName}
              </Tag>
              {/* The end node (结束) beside 流程结束 read "流程结束结束" (issue 31 #6): a name the action already says is not repeated. */}
              {e.nodeName && !e.actionName.endsWith(e.nodeName) ? <Typography.Text strong>{e.nodeName}</Typography.Text> : null}
            </div>
            <div>
              {e.actorName}
              {e.deptName ? <Typography.Text type="secondary">（{e.deptName}）</Typography.Text> : null}
              {e.toNodeName || e.toNames ? (
                <Typography.Text type="secondary" data-testid="track-target">
                  {' '}
                  → {target(e)}
                </Typography.Text>
              ) : null}
            </div>
            {e.opinion ? <div className="wf-opinion">{e.opinion}</div> : null}
          </div>
        ),
      }))}
    />
  );
}
