/**
 * 成本设置 (/costmanagement/setting, roles 1 and 17): 价格表 (the cost price list and its validity windows,
 * Excel import and export), 审核人 (the departments each auditor audits), 月结 (closing a department's month
 * and reopening it with a reason, and the log), 项目管理系统接口 (the sister system that pushes monthly orders).
 * Each tab loads its own data when first shown.
 */
import { Card, Tabs } from 'antd';
import { AuditorTab } from './AuditorTab';
import { ClosingTab } from './ClosingTab';
import { PmsTab } from './PmsTab';
import { PriceTab } from './PriceTab';

export default function CostSettingPage() {
  return (
    <Card title="成本设置" data-testid="cost-setting">
      <Tabs
        items={[
          { key: 'price', label: '价格表', children: <PriceTab /> },
          { key: 'auditor', label: '审核人', children: <AuditorTab /> },
          { key: 'closing', label: '月结', children: <ClosingTab /> },
          { key: 'pms', label: '项目管理系统接口', children: <PmsTab /> },
        ]}
      />
    </Card>
  );
}
