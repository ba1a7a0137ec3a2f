/**
 * 报销设置 (/reimbursement/cost-setting, roles 1 and 12): one tab per kind of setting — 费用类别, 成本中心,
 * 差旅标准, 城市分类, 人员职级, 发票期限, 会计系统接口. Every change goes to the server at once and the page
 * shows the server's answer (the settings as they are now).
 */
import { useQuery } from '@tanstack/react-query';
import { Card, Skeleton, Tabs } from 'antd';
import { reimbSettingApi } from '../../../api/reimbursementSettings';
import { AccountingTab, InvoiceAgeTab } from './AccountingTab';
import { CategoryTab } from './CategoryTab';
import { CityTab, CostCentreTab, GradeTab, StandardTab } from './OtherTabs';
import { REIMB_SETTING_KEY } from './settingChange';

export default function CostSettingPage() {
  const q = useQuery({ queryKey: REIMB_SETTING_KEY, queryFn: reimbSettingApi.get });
  if (!q.data) return <Card title="报销设置"><Skeleton active /></Card>;
  const s = q.data;
  return (
    <Card title="报销设置" data-testid="reimb-setting">
      <Tabs
        items={[
          { key: 'category', label: '费用类别', children: <CategoryTab s={s} /> },
          { key: 'centre', label: '成本中心', children: <CostCentreTab s={s} /> },
          { key: 'standard', label: '差旅标准', children: <StandardTab s={s} /> },
          { key: 'city', label: '城市分类', children: <CityTab s={s} /> },
          { key: 'grade', label: '人员职级', children: <GradeTab /> },
          { key: 'age', label: '发票期限', children: <InvoiceAgeTab s={s} /> },
          { key: 'accounting', label: '会计系统接口', children: <AccountingTab s={s} /> },
        ]}
      />
    </Card>
  );
}
