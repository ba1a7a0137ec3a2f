import { AppstoreOutlined } from '@ant-design/icons';
import { Card, Descriptions, Result } from 'antd';
import { AREA_TITLES } from '@zhyy/shared';
import { useView } from '../../router/view';

/** The one page every route of a not-yet-delivered area renders: it says which area and page it is. */
export default function AreaPendingPage() {
  const { route, path } = useView();
  const area = AREA_TITLES[route.area];
  return (
    <Card data-testid="area-pending-page">
      <Result
        icon={<AppstoreOutlined />}
        title={route.title}
        subTitle={`「${route.title}」属于${area}业务域，该业务域的功能尚未上线。`}
      />
      <Descriptions
        size="small"
        bordered
        column={1}
        style={{ maxWidth: 520, margin: '0 auto' }}
        styles={{ label: { whiteSpace: 'nowrap', width: 90 } }}
        items={[
          { key: 'area', label: '业务域', children: area },
          { key: 'page', label: '页面', children: route.crumbs.map((c) => c.title).join(' / ') },
          { key: 'path', label: '地址', children: path },
        ]}
      />
    </Card>
  );
}
