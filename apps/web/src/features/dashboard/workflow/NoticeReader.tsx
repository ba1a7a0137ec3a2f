/** One public notice, opened from the notice list (its content is text, shown as text). */
import { useQuery } from '@tanstack/react-query';
import { Modal, Skeleton, Typography } from 'antd';
import { wfApi } from '../../../api/workflow';
import { formatTime } from '../../common/workflowFormat';

export function NoticeReader({ id, onClose }: { id: string | null; onClose: () => void }) {
  const q = useQuery({ queryKey: ['workflow', 'notice', id], queryFn: () => wfApi.notice(id!), enabled: id !== null, retry: false });
  return (
    <Modal open={id !== null} onCancel={onClose} footer={null} title={q.data?.title ?? '通知公告'} width={640} destroyOnHidden>
      {q.isPending ? <Skeleton active /> : null}
      {q.isError ? <Typography.Text type="danger">公告不存在或已撤回</Typography.Text> : null}
      {q.data ? (
        <>
          <Typography.Paragraph type="secondary">
            {q.data.infoColumnName} · {q.data.publisherName} · {formatTime(q.data.publishedAt)}
          </Typography.Paragraph>
          <div className="wf-multiline">{q.data.content}</div>
        </>
      ) : null}
    </Modal>
  );
}
