/**
 * 人员信息: the staff (system users but administrators) with their personnel facts — ID card number masked,
 * education, highest title — and counts of titles and certificates (expired and expiring ones marked);
 * filters department, name, education, holding a certificate kind; server paging, Excel export (masked).
 */
import { Button, Form, Input, Select, Space, Tag, Typography, type TableColumnsType } from 'antd';
import { useNavigate } from 'react-router';
import { Education, Gender, TitleLevel, type PersonnelRow } from '@zhyy/shared';
import { personnelApi } from '../../../api/tender-people';
import { ListPage } from '../../../components/ListPage';
import { CostDeptSelect } from '../../common/DeptSelect';
import { compact, EDUCATION_OPTIONS, kindOptions, PEOPLE_KEY, PEOPLE_PATHS, useCertKinds } from './common';

interface FilterValues { keyword?: string; deptId?: string; education?: number; kindId?: string }

export const toPersonnelQuery = (v: FilterValues) => compact({ keyword: v.keyword?.trim(), deptId: v.deptId, education: v.education, kindId: v.kindId });

export default function PersonnelListPage() {
  const navigate = useNavigate();
  const kinds = useCertKinds();
  const columns: TableColumnsType<PersonnelRow> = [
    { title: '姓名', key: 'name', width: 90, fixed: 'left', render: (_, r) => <a onClick={() => navigate(PEOPLE_PATHS.personnelDetail(r.userId))}>{r.name}</a> },
    { title: '部门', dataIndex: 'deptName', key: 'deptName', width: 120, ellipsis: true },
    { title: '职务', dataIndex: 'position', key: 'position', width: 100, ellipsis: true },
    { title: '身份证号', dataIndex: 'idCard', key: 'idCard', width: 170 },
    { title: '性别', key: 'gender', width: 60, render: (_, r) => (r.gender ? Gender.label(r.gender) : '') },
    { title: '学历', key: 'education', width: 100, render: (_, r) => (r.education ? Education.label(r.education) : '') },
    { title: '专业', dataIndex: 'major', key: 'major', width: 120, ellipsis: true },
    { title: '最高职称', key: 'titleLevel', width: 90, render: (_, r) => (r.titleLevel ? TitleLevel.label(r.titleLevel) : '—') },
    {
      title: '资格证书', key: 'certCount', width: 170,
      render: (_, r) => (
        <Space size={4}>
          <span>{r.certCount} 本</span>
          {r.expiredCount ? <Tag color="red">过期 {r.expiredCount}</Tag> : null}
          {r.expiringCount ? <Tag color="orange">将到期 {r.expiringCount}</Tag> : null}
        </Space>
      ),
    },
    { title: '状态', key: 'active', width: 70, render: (_, r) => (r.active ? '在职' : <Typography.Text type="secondary">停用</Typography.Text>) },
    {
      title: '操作', key: 'actions', width: 120, fixed: 'right',
      render: (_, r) => (
        <Space size={0}>
          <Button type="link" size="small" onClick={() => navigate(PEOPLE_PATHS.personnelDetail(r.userId))}>详情</Button>
          <Button type="link" size="small" onClick={() => navigate(PEOPLE_PATHS.personnelEdit(r.userId))} data-testid={`personnel-edit-${r.userId}`}>编辑</Button>
        </Space>
      ),
    },
  ];
  return (
    <ListPage<PersonnelRow>
      testId="personnel-list"
      queryKey={[...PEOPLE_KEY, 'personnel']}
      fetch={(p) => personnelApi.list(p)}
      columns={columns}
      rowKey="userId"
      toRequest={(v) => toPersonnelQuery(v as FilterValues)}
      emptyText="没有人员"
      unit="人"
      filters={
        <>
          <Form.Item name="keyword" label="姓名"><Input allowClear placeholder="姓名或登录名" maxLength={50} style={{ width: 140 }} /></Form.Item>
          <Form.Item name="deptId" label="部门"><CostDeptSelect style={{ width: 170 }} /></Form.Item>
          <Form.Item name="education" label="学历"><Select allowClear placeholder="全部" options={EDUCATION_OPTIONS} style={{ width: 120 }} /></Form.Item>
          <Form.Item name="kindId" label="持有证书"><Select allowClear placeholder="全部" options={kindOptions(kinds.data)} style={{ width: 170 }} /></Form.Item>
        </>
      }
      export={{ fileName: '人员信息', run: (f) => personnelApi.export(f) }}
    />
  );
}
