/** The dialogs of the approval panel: return (node + reason), shift (person + reason), CC (people), choose handlers. */
import { Form, Input, Modal, Select } from 'antd';
import type { UserRef } from '@zhyy/shared';
import { settled } from '../common/workflowFormat';
import { UserPicker } from './widgets';

export type Dialog = null | 'return' | 'shift' | 'cc' | 'choose';

interface Props {
  open: Dialog;
  onClose: () => void;
  returnTargets: Array<{ id: string; name: string }>;
  chooseFor?: string;
  onReturn: (toNodeId: string, reason: string) => Promise<void>;
  onShift: (to: UserRef, reason: string) => Promise<void>;
  onCc: (users: UserRef[], note: string) => Promise<void>;
  onChoose: (users: UserRef[]) => Promise<void>;
}

const reasonRules = (what: string) => [
  { required: true, whitespace: true, message: `请填写${what}` },
  { max: 500, message: `${what}不能超过500个字` },
];

export function ActionDialogs(p: Props) {
  const [form] = Form.useForm();
  const titles: Record<Exclude<Dialog, null>, string> = { return: '退回', shift: '移交', cc: '抄送', choose: `选择「${p.chooseFor ?? '下一节点'}」的处理人` };
  const submit = async () => {
    const v = await form.validateFields();
    if (p.open === 'return') await p.onReturn(v.toNodeId, v.reason.trim());
    if (p.open === 'shift') await p.onShift(v.user, v.reason.trim());
    if (p.open === 'cc') await p.onCc(v.users, v.note?.trim() ?? '');
    if (p.open === 'choose') await p.onChoose(v.users);
    form.resetFields();
    p.onClose();
  };
  return (
    <Modal open={p.open !== null} title={p.open ? titles[p.open] : ''} onCancel={p.onClose} onOk={() => settled(submit)} okText="确定" cancelText="取消" destroyOnHidden>
      <Form form={form} layout="vertical" preserve={false}>
        {p.open === 'return' ? (
          <>
            <Form.Item name="toNodeId" label="退回到" rules={[{ required: true, message: '请选择退回节点' }]} initialValue={p.returnTargets[0]?.id}>
              <Select options={p.returnTargets.map((n) => ({ value: n.id, label: n.name }))} />
            </Form.Item>
            <Form.Item name="reason" label="退回原因" rules={reasonRules('退回原因')}>
              <Input.TextArea autoSize={{ minRows: 3 }} maxLength={500} showCount />
            </Form.Item>
          </>
        ) : null}
        {p.open === 'shift' ? (
          <>
            <Form.Item name="user" label="移交给" rules={[{ required: true, message: '请选择移交对象' }]}>
              <UserPicker />
            </Form.Item>
            <Form.Item name="reason" label="移交原因" rules={reasonRules('移交原因')}>
              <Input.TextArea autoSize={{ minRows: 2 }} maxLength={500} showCount />
            </Form.Item>
          </>
        ) : null}
        {p.open === 'cc' ? (
          <>
            <Form.Item name="users" label="抄送给" rules={[{ required: true, message: '请选择抄送人' }]}>
              <UserPicker multiple />
            </Form.Item>
            <Form.Item name="note" label="留言" rules={[{ max: 500, message: '留言不能超过500个字' }]}>
              <Input.TextArea autoSize={{ minRows: 2 }} maxLength={500} />
            </Form.Item>
          </>
        ) : null}
        {p.open === 'choose' ? (
          <Form.Item name="users" label="处理人" rules={[{ required: true, message: '请选择处理人' }]} extra="选择多人时需全部同意">
            <UserPicker multiple testId="choose-handlers" />
          </Form.Item>
        ) : null}
      </Form>
    </Modal>
  );
}
