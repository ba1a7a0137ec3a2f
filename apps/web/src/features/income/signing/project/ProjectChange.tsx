/**
 * 项目变更 (/invoice-entry/project/change): pick an incoming invoice and one of its allocations,
 * move all or part of it to another project with a reason (the outgoing invoices' MoveCard, confirmed),
 * and read the change history — who, when, why, before → after — filtered by project or by the invoice
 * picked. Role 16 reads only.
 */
import { useQueryClient } from '@tanstack/react-query';
import { Alert, Card, Checkbox, Col, Empty, Form, Row, Skeleton, Space, Table, Typography } from 'antd';
import { useState } from 'react';
import type { AllocationChangeRow, IncomeAllocationRow } from '@zhyy/shared';
import { incomeProjectApi } from '../../../../api/incomeRevoke';
import { ListPage } from '../../../../components/ListPage';
import { changeColumns, MoveCard } from '../../../common/apportionment/changes';
import { TargetSelect } from '../../../common/apportionment/common';
import { poolNumber } from '../../pool/request';
import { useCanWriteEntry } from '../revoke/common';
import { allocationColumns, INCOME_PROJECTS, InvoicePicker, PROJECT_KEY, toChangeRow, useEntryDetail, type PickedInvoice } from './common';

const columns = changeColumns({ snapshots: true });

export default function ProjectChange() {
  const canWrite = useCanWriteEntry();
  const qc = useQueryClient();
  const [invoice, setInvoice] = useState<PickedInvoice | null>(null);
  const [alloc, setAlloc] = useState<IncomeAllocationRow | null>(null);
  const q = useEntryDetail(invoice?.id);
  const d = q.data;
  const pickInvoice = (r: PickedInvoice) => {
    setInvoice(r);
    setAlloc(null);
  };
  return (
    <Space orientation="vertical" size={12} style={{ width: '100%' }} data-testid="income-project-change">
      {!canWrite ? <Alert type="info" showIcon title="您可以查看项目分摊与变更记录，项目变更需由税务会计或档案管理员办理。" /> : null}
      <Row gutter={[12, 12]}>
        <Col xs={24} xl={13}>
          <Space orientation="vertical" size={12} style={{ width: '100%' }}>
            <InvoicePicker picked={invoice} onPick={pickInvoice} />
            {invoice ? (
              <Card size="small" title={`发票 ${invoice.invoiceNo} 的项目分摊（选择要变更的一笔）`}>
                {q.isLoading || !d ? (
                  <Skeleton active />
                ) : (
                  <Table<IncomeAllocationRow>
                    rowKey="id"
                    size="small"
                    pagination={false}
                    columns={allocationColumns}
                    dataSource={d.allocations}
                    rowSelection={{ type: 'radio', selectedRowKeys: alloc ? [alloc.id] : [], onChange: (_k, rows) => rows[0] && setAlloc(rows[0]) }}
                    onRow={(r) => ({ onClick: () => setAlloc(r), style: { cursor: 'pointer' } })}
                    locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="该发票尚未分摊到项目，请先在项目分摊中分摊" /> }}
                    data-testid="allocation-table"
                  />
                )}
              </Card>
            ) : null}
          </Space>
        </Col>
        <Col xs={24} xl={11}>
          <MoveCard
            dim="project"
            picked={alloc && d ? { id: alloc.id, invoiceNo: poolNumber(d), targetId: alloc.projectId, targetName: alloc.projectName, amountIncl: alloc.amountIncl } : null}
            canChange={canWrite}
            lookup={INCOME_PROJECTS}
            move={(v) => incomeProjectApi.move({ allocationId: v.allocationId, toProjectId: v.toTargetId, amountIncl: v.amountIncl, reason: v.reason.trim() })}
            onMoved={() => {
              setAlloc(null);
              void qc.invalidateQueries({ queryKey: PROJECT_KEY });
            }}
          />
        </Col>
      </Row>
      <Typography.Title level={5} style={{ margin: '4px 0 0' }}>变更记录</Typography.Title>
      <ListPage<AllocationChangeRow>
        testId="change-history"
        queryKey={[...PROJECT_KEY, 'changes']}
        fetch={async (p) => {
          const page = await incomeProjectApi.changes(p);
          return { ...page, items: page.items.map(toChangeRow) };
        }}
        rowKey="id"
        columns={columns}
        pageSize={10}
        emptyText="暂无分摊与变更记录"
        toRequest={(v) => ({ projectId: v.projectId, invoiceId: v.onlyPicked && invoice ? invoice.id : undefined })}
        filters={
          <>
            <Form.Item name="projectId" label="项目">
              <TargetSelect dim="project" lookup={INCOME_PROJECTS} placeholder="全部项目" testId="history-project" />
            </Form.Item>
            <Form.Item name="onlyPicked" valuePropName="checked">
              <Checkbox disabled={!invoice}>只看所选发票</Checkbox>
            </Form.Item>
          </>
        }
      />
    </Space>
  );
}
