/**
 * 职称证书: professional titles (初级, 中级, 高级, 正高级) — name or number, level, speciality — server paging,
 * Excel export (the shared ListPage); add, modify, delete (after a confirmation).
 */
import { PlusOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { Button, Form, Input, Popconfirm, Select, Space, Tag, type TableColumnsType } from 'antd';
import { useNavigate } from 'react-router';
import { TitleLevel, type TitleRow } from '@zhyy/shared';
import { titleApi } from '../../../api/tender-people';
import { ListPage } from '../../../components/ListPage';
import { feedback } from '../../../ui/feedback';
import { compact, PEOPLE_KEY, PEOPLE_PATHS, TITLE_LEVEL_OPTIONS } from './common';

interface FilterValues { keyword?: string; level?: number; speciality?: string }

export const toTitleQuery = (v: FilterValues) => compact({ keyword: v.keyword?.trim(), level: v.level, speciality: v.speciality?.trim() });
const LEVEL_COLOURS: Record<number, string> = { 1: 'default', 2: 'blue', 3: 'purple', 4: 'gold' };

export default function TitleListPage() {
  const navigate = useNavigate();
  const qc = useQueryClient();
  const remove = async (r: TitleRow) => {
    try {
      await titleApi.remove(r.id);
      void feedback().message.success('已删除');
      void qc.invalidateQueries({ queryKey: PEOPLE_KEY });
    } catch {
      // Shown by the API client.
    }
  };
  const columns: TableColumnsType<TitleRow> = [
    { title: '姓名', key: 'holder', width: 90, fixed: 'left', render: (_, r) => <a onClick={() => navigate(PEOPLE_PATHS.personnelDetail(r.userId))}>{r.holderName}</a> },
    { title: '部门', dataIndex: 'deptName', key: 'deptName', width: 120, ellipsis: true },
    { title: '级别', key: 'level', width: 80, render: (_, r) => <Tag color={LEVEL_COLOURS[r.level]}>{TitleLevel.label(r.level)}</Tag> },
    { title: '职称名称', dataIndex: 'titleName', key: 'titleName', width: 130, ellipsis: true },
    { title: '专业', dataIndex: 'speciality', key: 'speciality', width: 110, ellipsis: true },
    { title: '证书编号', dataIndex: 'certNo', key: 'certNo', width: 160, ellipsis: true },
    { title: '发证日期', dataIndex: 'issueDate', key: 'issueDate', width: 100 },
    { title: '发证机关', dataIndex: 'issuer', key: 'issuer', width: 180, ellipsis: true },
    {
      title: '操作', key: 'actions', width: 120, fixed: 'right',
      render: (_, r) => (
        <Space size={0}>
          <Button type="link" size="small" onClick={() => navigate(PEOPLE_PATHS.titleModify(r.id))} data-testid={`title-edit-${r.id}`}>修改</Button>
          <Popconfirm title={`删除 ${r.holderName} 的${TitleLevel.label(r.level)}职称（${r.certNo}）？`} okText="删除" okButtonProps={{ danger: true }} cancelText="取消" onConfirm={() => remove(r)}>
            <Button type="link" size="small" danger data-testid={`title-delete-${r.id}`}>删除</Button>
          </Popconfirm>
        </Space>
      ),
    },
  ];
  return (
    <ListPage<TitleRow>
      testId="title-list"
      queryKey={[...PEOPLE_KEY, 'titles']}
      fetch={(p) => titleApi.list(p)}
      columns={columns}
      rowKey="id"
      toRequest={(v) => toTitleQuery(v as FilterValues)}
      emptyText="没有职称证书"
      filters={
        <>
          <Form.Item name="keyword" label="关键字"><Input allowClear placeholder="姓名、职称或编号" maxLength={50} style={{ width: 170 }} /></Form.Item>
          <Form.Item name="level" label="级别"><Select allowClear placeholder="全部" options={TITLE_LEVEL_OPTIONS} style={{ width: 110 }} /></Form.Item>
          <Form.Item name="speciality" label="专业"><Input allowClear maxLength={50} style={{ width: 130 }} /></Form.Item>
        </>
      }
      actions={<Button type="primary" icon={<PlusOutlined />} onClick={() => navigate(PEOPLE_PATHS.titleAdd)} data-testid="title-new">新增职称证书</Button>}
      export={{ fileName: '职称证书', run: (f) => titleApi.export(f) }}
    />
  );
}
