/**
 * 合同台账 (/tender/contract/list, the /tender group): frame, single and order contracts with their
 * project, dates and the completeness of their required pages (完整 / 缺N页); filters by type, customer,
 * project, signing and acceptance dates and completeness; Excel export of the filtered list. Adding is
 * for roles 1, 4, 6; editing for 1, 4, 6, 7, 8.
 */
import { Button, DatePicker, Form, Input, Select, Space } from 'antd';
import type { TableColumnsType } from 'antd';
import type { Dayjs } from 'dayjs';
import { Link, useNavigate } from 'react-router';
import { ContractType, EMPTY_ID, type TenderContractRow } from '@zhyy/shared';
import { tenderContractApi } from '../../../api/tender-contracts';
import { ListPage } from '../../../components/ListPage';
import { CONTRACT_TYPE_OPTIONS, Money, PagesTag, ProjectSelect, TENDER_CONTRACT_KEY, contractAddPath, contractDetailPath, contractEditPath, dayOf, useCanAddContract, useCanEditContract } from './common';

type Range = [Dayjs | null, Dayjs | null] | null | undefined;

/** The filter form's values as the list's request. */
export function contractRequest(v: Record<string, unknown>): Record<string, unknown> {
  const signed = v.signed as Range;
  const accepted = v.accepted as Range;
  return {
    keyword: v.keyword, contractType: v.contractType, customer: v.customer, projectId: v.projectId, complete: v.complete,
    signedFrom: dayOf(signed?.[0]), signedTo: dayOf(signed?.[1]), acceptedFrom: dayOf(accepted?.[0]), acceptedTo: dayOf(accepted?.[1]),
  };
}

export default function ContractListPage() {
  const canAdd = useCanAddContract();
  const canEdit = useCanEditContract();
  const navigate = useNavigate();
  const columns: TableColumnsType<TenderContractRow> = [
    { title: '合同编号', dataIndex: 'code', key: 'code', width: 170, fixed: 'left', sorter: true, render: (v: string, r) => <Link to={contractDetailPath(r.contractType, r.id)}>{v}</Link> },
    { title: '合同名称', dataIndex: 'name', key: 'name', width: 220, ellipsis: true },
    { title: '类型', key: 'contractType', width: 90, render: (_, r) => ContractType.label(r.contractType) },
    { title: '合同金额（元）', key: 'amount', width: 150, align: 'right', sorter: true, render: (_, r) => <Money fen={r.amount} /> },
    { title: '附件', key: 'pages', width: 80, render: (_, r) => <PagesTag missing={r.missingPages} /> },
    { title: '客户', dataIndex: 'customer', key: 'customer', width: 200, ellipsis: true },
    { title: '项目', key: 'project', width: 200, ellipsis: true, render: (_, r) => (r.projectCode ? `${r.projectCode} ${r.projectName}` : '—') },
    { title: '框架合同', key: 'frame', width: 150, render: (_, r) => (r.frameId ? <Link to={contractDetailPath(ContractType.frame, r.frameId)}>{r.frameCode}</Link> : '—') },
    { title: '签订日期', dataIndex: 'signedOn', key: 'signedOn', width: 110, sorter: true, render: (v: string | null) => v ?? '—' },
    { title: '竣工验收', dataIndex: 'acceptedOn', key: 'acceptedOn', width: 110, sorter: true, render: (v: string | null) => v ?? '—' },
    { title: '负责人', dataIndex: 'managerName', key: 'managerName', width: 90, render: (v: string) => v || '—' },
    {
      title: '操作', key: 'actions', width: 130, fixed: 'right',
      render: (_, r) => (
        <Space size={4}>
          <Link to={contractDetailPath(r.contractType, r.id)}>详情</Link>
          {canEdit ? <Link to={contractEditPath(r.contractType, r.id)}>编辑</Link> : null}
          {canAdd ? <Link to={contractAddPath(r.contractType, r.id)}>复制</Link> : null}
        </Space>
      ),
    },
  ];
  return (
    <ListPage<TenderContractRow>
      testId="tender-contract-list"
      queryKey={[...TENDER_CONTRACT_KEY, 'list']}
      fetch={(p) => tenderContractApi.list(p)}
      columns={columns}
      rowKey="id"
      toRequest={contractRequest}
      emptyText="没有符合条件的合同"
      filters={
        <>
          <Form.Item name="keyword" label="关键字">
            <Input placeholder="合同编号、名称" allowClear style={{ width: 160 }} />
          </Form.Item>
          <Form.Item name="contractType" label="合同类型">
            <Select options={CONTRACT_TYPE_OPTIONS} allowClear placeholder="全部" style={{ width: 110 }} />
          </Form.Item>
          <Form.Item name="customer" label="客户">
            <Input allowClear style={{ width: 150 }} />
          </Form.Item>
          <Form.Item name="projectId" label="项目">
            <ProjectSelect width={200} placeholder="全部项目" />
          </Form.Item>
          <Form.Item name="signed" label="签订日期">
            <DatePicker.RangePicker style={{ width: 230 }} />
          </Form.Item>
          <Form.Item name="accepted" label="竣工验收">
            <DatePicker.RangePicker style={{ width: 230 }} />
          </Form.Item>
          <Form.Item name="complete" label="附件">
            <Select allowClear placeholder="全部" style={{ width: 100 }} options={[{ value: 'complete', label: '完整' }, { value: 'incomplete', label: '不完整' }]} />
          </Form.Item>
        </>
      }
      actions={
        canAdd ? (
          <>
            <Button type="primary" onClick={() => navigate(contractAddPath(ContractType.frame, EMPTY_ID))}>新增框架合同</Button>
            <Button onClick={() => navigate(contractAddPath(ContractType.single, EMPTY_ID))}>新增单项合同</Button>
            <Button onClick={() => navigate(contractAddPath(ContractType.order, EMPTY_ID))}>新增订单合同</Button>
          </>
        ) : null
      }
      export={{ fileName: '合同台账', run: (f) => tenderContractApi.export(f) }}
    />
  );
}
