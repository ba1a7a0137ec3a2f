import { DownloadOutlined, FileOutlined } from '@ant-design/icons';
import { Button, Result, Typography } from 'antd';
import { useEffect } from 'react';
import { useParams } from 'react-router';
import { PRODUCT_TITLE } from '@zhyy/shared';
import { viewerFile } from './fileView';
import './fileView.css';

/** The public file viewer: the platform's own files only; images and PDFs inline, a download for anything else. */
export default function FileView() {
  const { viewData } = useParams();
  const file = viewerFile(viewData);
  const name = typeof file === 'string' ? null : file.name;
  useEffect(() => {
    if (name) document.title = `${name} - ${PRODUCT_TITLE}`;
  }, [name]);

  if (file === 'outside') {
    return (
      <Result
        status="warning"
        title="不支持预览该文件"
        subTitle="该链接指向本平台以外的地址，为安全起见不予打开或下载。请在平台内重新打开文件。"
        data-testid="file-view-outside"
      />
    );
  }
  if (file === 'invalid') {
    return (
      <Result
        status="warning"
        title="文件链接无效"
        subTitle="该文件预览链接格式不正确或已损坏，请向发送链接的同事重新获取。"
        data-testid="file-view-invalid"
      />
    );
  }
  return (
    <div className="file-view" data-testid="file-view">
      <header className="file-view-header">
        <Typography.Text strong ellipsis className="file-view-name">
          {file.name}
        </Typography.Text>
        <Button type="primary" icon={<DownloadOutlined />} href={file.url} download={file.name}>
          下载
        </Button>
      </header>
      <div className="file-view-body">
        {file.kind === 'image' ? <img src={file.url} alt={file.name} className="file-view-image" /> : null}
        {file.kind === 'pdf' ? <iframe src={file.url} title={file.name} className="file-view-pdf" /> : null}
        {file.kind === 'other' ? (
          <Result
            icon={<FileOutlined />}
            title={file.name}
            subTitle="该类型的文件无法在浏览器中预览，请下载后查看。"
            extra={
              <Button type="primary" icon={<DownloadOutlined />} href={file.url} download={file.name}>
                下载文件
              </Button>
            }
          />
        ) : null}
      </div>
    </div>
  );
}
