/** 匹配: a temporary project's allocation (or an invoice's unmatched part) goes to a real project or contract. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Descriptions, Form, Input, Modal } from 'antd';
import type { AllocationDim, TempInvoiceRow } from '@zhyy/shared';
import { statisticsApi } from '../../../api/invoiceApportionment';
import { feedback } from '../../../ui/feedback';
import { Money } from '../widgets';
import { APPORTIONMENT_KEY, DIM_LABEL, TargetSelect } from '../../common/apportionment/common';

export function MatchModal({ dim, row, onClose }: { dim: AllocationDim; row: TempInvoiceRow | null; onClose: () => void }) {
  const [form] = Form.useForm<{ toTargetId: string; reason: string }>();
  const qc = useQueryClient();
  const what = DIM_LABEL[dim];
  const match = useMutation({
    mutationFn: (v: { toTargetId: string; reason: string }) =>
      (dim === 'project' ? statisticsApi.matchProject : statisticsApi.matchContract)({ invoiceId: row!.invoiceId, allocationId: row!.allocationId, toTargetId: v.toTargetId, reason: v.reason ?? '' }),
    onSuccess: (res) => {
      void feedback().message.success(res.message ?? '已匹配');
      void qc.invalidateQueries({ queryKey: APPORTIONMENT_KEY });
      onClose();
    },
  });
  return (
    <Modal title={`匹配正式${what}`} open={!!row} onCancel={onClose} okText="确认匹配" confirmLoading={match.isPending} onOk={() => void form.validateFields().then((v) => match.mutate(v))} destroyOnHidden>
      {row ? (
        <>
          <Descriptions size="small" column={1} bordered style={{ marginBottom: 12 }}>
            <Descriptions.Item label="发票号码">{row.invoiceNo}</Descriptions.Item>
            <Descriptions.Item label="购方">{row.buyerName}</Descriptions.Item>
            {dim === 'project' ? <Descriptions.Item label="临时项目">{row.targetName}</Descriptions.Item> : null}
            <Descriptions.Item label="待匹配金额"><Money fen={row.amountIncl} strong /></Descriptions.Item>
          </Descriptions>
          <Form form={form} layout="vertical" preserve={false}>
            <Form.Item name="toTargetId" label={`正式${what}`} rules={[{ required: true, message: `请选择正式${what}` }]}>
              <TargetSelect dim={dim} realOnly testId="match-target" />
            </Form.Item>
            <Form.Item name="reason" label="说明">
              <Input maxLength={200} placeholder={dim === 'project' ? '例如：已立项，项目编号 XM2026-006' : '例如：按施工合同归集'} />
            </Form.Item>
          </Form>
        </>
      ) : null}
    </Modal>
  );
}
