/**
 * 人员详情: one person's facts (ID card number in full), professional titles and qualification certificates
 * with their state today (expired red, within 90 days orange), each linking to its editor.
 */
import { useQuery } from '@tanstack/react-query';
import { Button, Card, Descriptions, Space, Spin, Table, Typography, type TableColumnsType } from 'antd';
import { useNavigate, useParams } from 'react-router';
import { Education, Gender, TitleLevel, type CertificateRow, type TitleRow } from '@zhyy/shared';
import { personnelApi } from '../../../api/tender-people';
import { formatDateTime } from '../../../components/format';
import { RecordNotFound } from '../../../components/RecordNotFound';
import { tableScrollX } from '../../../components/tableWidth';
import { CertStateCell, daysLeftText, PEOPLE_KEY, PEOPLE_PATHS } from './common';

export default function PersonnelDetailPage() {
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const q = useQuery({ queryKey: [...PEOPLE_KEY, 'personnel', id], queryFn: () => personnelApi.detail(id) });
  if (q.isError) return <RecordNotFound what="人员" error={q.error} back={PEOPLE_PATHS.personnel} backLabel="返回人员信息" />;
  if (q.isLoading || !q.data) return <Spin style={{ display: 'block', margin: 48 }} />;
  const { facts: f, titles, certificates } = q.data;
  const titleColumns: TableColumnsType<TitleRow> = [
    { title: '级别', key: 'level', width: 80, render: (_, r) => TitleLevel.label(r.level) },
    { title: '职称名称', dataIndex: 'titleName', key: 'titleName', width: 130 },
    { title: '专业', dataIndex: 'speciality', key: 'speciality', width: 110 },
    { title: '证书编号', dataIndex: 'certNo', key: 'certNo', width: 160 },
    { title: '发证日期', dataIndex: 'issueDate', key: 'issueDate', width: 100 },
    { title: '发证机关', dataIndex: 'issuer', key: 'issuer', width: 180, ellipsis: true },
    { title: '操作', key: 'a', width: 70, fixed: 'right', render: (_, r) => <Button type="link" size="small" onClick={() => navigate(PEOPLE_PATHS.titleModify(r.id))}>修改</Button> },
  ];
  const certColumns: TableColumnsType<CertificateRow> = [
    { title: '证书种类', dataIndex: 'kindName', key: 'kindName', width: 150 },
    { title: '级别', dataIndex: 'level', key: 'level', width: 60 },
    { title: '专业', dataIndex: 'speciality', key: 'speciality', width: 110 },
    { title: '证书编号', dataIndex: 'certNo', key: 'certNo', width: 160 },
    { title: '有效期', key: 'valid', width: 190, render: (_, r) => `${r.validFrom} 至 ${r.validTo ?? '长期'}` },
    { title: '状态', key: 'state', width: 170, render: (_, r) => <CertStateCell cert={r} /> },
    { title: '剩余', key: 'left', width: 100, render: (_, r) => daysLeftText(r.daysLeft) },
    { title: '操作', key: 'a', width: 70, fixed: 'right', render: (_, r) => <Button type="link" size="small" onClick={() => navigate(PEOPLE_PATHS.certificateModify(r.id))}>修改</Button> },
  ];
  return (
    <Space orientation="vertical" size={12} style={{ width: '100%' }} data-testid="personnel-detail">
      <Card title={`人员详情：${f.name}`} extra={<Button type="primary" onClick={() => navigate(PEOPLE_PATHS.personnelEdit(f.userId))}>编辑</Button>}>
        <Descriptions size="small" column={{ xs: 1, md: 3 }} items={[
          { key: 'name', label: '姓名', children: `${f.name}（${f.loginName}）${f.active ? '' : '（已停用）'}` },
          { key: 'dept', label: '部门', children: f.deptName },
          { key: 'position', label: '职务', children: f.position },
          { key: 'idCard', label: '身份证号', children: <span data-testid="detail-id-card">{f.idCard}</span> },
          { key: 'gender', label: '性别', children: f.gender ? Gender.label(f.gender) : '' },
          { key: 'birth', label: '出生日期', children: f.birthDate ?? '' },
          { key: 'education', label: '学历', children: f.education ? Education.label(f.education) : '' },
          { key: 'school', label: '毕业院校', children: f.school },
          { key: 'major', label: '专业', children: f.major },
          { key: 'graduation', label: '毕业日期', children: f.graduationDate ?? '' },
          { key: 'hire', label: '入职日期', children: f.hireDate ?? '' },
          { key: 'phone', label: '电话', children: f.phone },
          { key: 'remark', label: '备注', children: f.remark, span: 2 },
          { key: 'updated', label: '更新', children: f.updatedAt ? `${f.updatedBy} ${formatDateTime(f.updatedAt)}` : '' },
        ]} />
      </Card>
      <Card size="small" title={`职称（${titles.length}）`}>
        <Table<TitleRow> rowKey="id" size="small" columns={titleColumns} dataSource={titles} pagination={false} scroll={{ x: tableScrollX(titleColumns) }} locale={{ emptyText: '没有职称' }} />
      </Card>
      <Card size="small" title={`资格证书（${certificates.length}）`} extra={<Typography.Text type="secondary">红色已过期，橙色90天内到期</Typography.Text>}>
        <Table<CertificateRow> rowKey="id" size="small" columns={certColumns} dataSource={certificates} pagination={false} scroll={{ x: tableScrollX(certColumns) }} locale={{ emptyText: '没有资格证书' }} data-testid="detail-certificates" />
      </Card>
    </Space>
  );
}
