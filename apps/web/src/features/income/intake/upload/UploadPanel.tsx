/**
 * 上传发票 on 进项发票编辑: files dropped or chosen (several at once; PDF, OFD, XML, JPG, PNG, 10 MB each) are
 * recognised one call a file, one after another, with the overall progress and each file's state; each
 * recognised file becomes a card to correct and save (RecognisedCard). With `base` (edit/<id>) the files are
 * added to that invoice: the cards start from its face, and saving merges them into it.
 */
import { InboxOutlined } from '@ant-design/icons';
import { Button, Empty, Popconfirm, Progress, Space, Typography, Upload } from 'antd';
import { useEffect, useReducer } from 'react';
import { UPLOAD_MAX_BYTES } from '@zhyy/shared';
import { incomeUploadApi } from '../../../../api/incomeUpload';
import { readBase64, type EntryForm } from '../EntryFormFields';
import { RecognisedCard } from './RecognisedCard';
import { UPLOAD_ACCEPT, nextToRecognise, queueProgress, queueReducer, reasonOf, type QueueAction, type QueuedFile } from './uploadQueue';

/** The files of the page and the one-at-a-time recognition of the waiting ones. */
export function useUploadQueue(): [QueuedFile[], (a: QueueAction) => void] {
  const [items, dispatch] = useReducer(queueReducer, []);
  useEffect(() => {
    const next = nextToRecognise(items);
    if (!next) return;
    dispatch({ type: 'start', uid: next.uid });
    void (async () => {
      try {
        const content = await readBase64(next.file);
        const result = await incomeUploadApi.recognise({ fileName: next.name, content });
        dispatch({ type: 'recognised', uid: next.uid, result });
      } catch (e) {
        dispatch({ type: 'failed', uid: next.uid, reason: reasonOf(e) });
      }
    })();
  }, [items]);
  return [items, dispatch];
}

export function UploadPanel({ base, hint }: { base?: EntryForm; hint?: string }) {
  const [items, dispatch] = useUploadQueue();
  const p = queueProgress(items);
  const unsaved = items.some((f) => f.state === 'recognised' && !f.saved);
  return (
    <Space orientation="vertical" size={12} style={{ width: '100%' }} data-testid="upload-panel">
      <Upload.Dragger multiple accept={UPLOAD_ACCEPT} showUploadList={false} data-testid="upload-dragger"
        beforeUpload={(file) => {
          dispatch({ type: 'add', files: [{ uid: file.uid, file }] });
          return false;
        }}>
        <p className="ant-upload-drag-icon"><InboxOutlined /></p>
        <p className="ant-upload-text">点击或拖入发票文件，可一次选择多个</p>
        <p className="ant-upload-hint">{hint ?? `支持PDF、OFD、XML、JPG、PNG，每个文件不超过${UPLOAD_MAX_BYTES / 1024 / 1024}MB；逐个识别，核对后保存到票池`}</p>
      </Upload.Dragger>
      {items.length ? (
        <div data-testid="upload-progress">
          <Progress percent={p.percent} status={p.running ? 'active' : p.failed === p.total ? 'exception' : 'normal'} />
          <Space style={{ width: '100%', justifyContent: 'space-between' }}>
            <Typography.Text type="secondary" data-testid="upload-progress-text">{p.text}</Typography.Text>
            {p.running ? null : unsaved ? (
              <Popconfirm title="清空全部文件？" description="尚未保存的识别结果将不保存。" okText="清空" cancelText="取消" onConfirm={() => dispatch({ type: 'clear' })}><Button size="small">清空列表</Button></Popconfirm>
            ) : <Button size="small" onClick={() => dispatch({ type: 'clear' })}>清空列表</Button>}
          </Space>
        </div>
      ) : <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="尚未上传文件" />}
      {items.map((item) => (
        <RecognisedCard key={item.uid} item={item} base={base}
          onSaved={(arrival) => dispatch({ type: 'saved', uid: item.uid, arrival })}
          onRemove={() => dispatch({ type: 'remove', uid: item.uid })} />
      ))}
    </Space>
  );
}
