/**
 * 异常票池 (/income/invoicePool/abnormal), issue 14: the abnormal worklist. 待处理: every open case with its
 * owner, age and the actions of its flag; 已处理: the resolved ones (how, by whom, the 进项转出 voucher);
 * 异常票池: the pool filtered by flags (issue 13's view, with its count).
 */
import { Tabs } from 'antd';
import { CaseList } from './CaseList';
import PoolView from './PoolView';

export default function AbnormalPage() {
  return (
    <div data-testid="abnormal-tabs">
      <Tabs
        destroyOnHidden
        items={[
          { key: 'open', label: '待处理', children: <CaseList state="open" /> },
          { key: 'resolved', label: '已处理', children: <CaseList state="resolved" /> },
          { key: 'pool', label: '异常票池', children: <PoolView /> },
        ]}
      />
    </div>
  );
}
