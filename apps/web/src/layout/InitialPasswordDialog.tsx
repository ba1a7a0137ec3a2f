import { Alert, Button, Form, Input, Modal } from 'antd';
import { useState } from 'react';
import {
  Messages,
  PASSWORD_DIALOG_WIDTH,
  PASSWORD_INPUT_MAX_LENGTH,
  validateConfirmPassword,
  validateNewPassword,
} from '@zhyy/shared';
import { updatePassword } from '../api/account';
import { logClientError } from '../live/errorLog';
import { useSession } from '../stores/session';
import { feedback } from '../ui/feedback';

interface PasswordForm {
  oldPassword: string;
  password: string;
  confirmPassword: string;
}

const rule = (check: (value: string) => string | null) => ({
  validator: (_: unknown, value: string | undefined) => {
    const problem = check(value ?? '');
    return problem ? Promise.reject(new Error(problem)) : Promise.resolve();
  },
});

/**
 * SPEC sections 4 and 5: the initial-password dialog. Open while the change-password flag is raised;
 * neither the mask, Escape nor a close button closes it, only 设置 after a successful change.
 */
export function InitialPasswordDialog() {
  const open = useSession((s) => s.needChangePassword);
  const clearFlag = useSession((s) => s.clearPasswordFlag);
  const [form] = Form.useForm<PasswordForm>();
  const [saving, setSaving] = useState(false);

  async function submit() {
    const values = await form.validateFields().catch(() => null);
    if (!values) return;
    setSaving(true);
    try {
      await updatePassword(values);
      feedback().message.success(Messages.passwordUpdated);
      form.resetFields();
      clearFlag();
    } catch (e) {
      // The request layer already showed the server's message (e.g. 原密码错误); the failure is only logged.
      logClientError(e);
    } finally {
      setSaving(false);
    }
  }

  return (
    <Modal
      open={open}
      title="修改初始密码"
      width={PASSWORD_DIALOG_WIDTH}
      closable={false}
      mask={{ closable: false }}
      keyboard={false}
      forceRender
      footer={
        <Button type="primary" loading={saving} onClick={submit} data-testid="password-submit">
          设置
        </Button>
      }
    >
      <div data-testid="password-dialog">
        <Alert type="warning" showIcon title="您正在使用初始密码，请先设置新密码。" className="password-hint" />
        <Form form={form} layout="vertical" requiredMark autoComplete="off" onFinish={submit}>
          <Form.Item label="原密码" name="oldPassword" rules={[{ required: true, message: '输入原密码' }]}>
            <Input.Password maxLength={PASSWORD_INPUT_MAX_LENGTH} autoComplete="current-password" aria-label="原密码" />
          </Form.Item>
          <Form.Item label="新密码" name="password" required rules={[rule(validateNewPassword)]} extra="6-20位，由字母和数字组合">
            <Input.Password maxLength={PASSWORD_INPUT_MAX_LENGTH} autoComplete="new-password" aria-label="新密码" />
          </Form.Item>
          <Form.Item
            label="确认密码"
            name="confirmPassword"
            required
            dependencies={['password']}
            rules={[({ getFieldValue }) => rule((v) => validateConfirmPassword(v, getFieldValue('password') as string))]}
          >
            <Input.Password maxLength={PASSWORD_INPUT_MAX_LENGTH} autoComplete="new-password" aria-label="确认密码" onPressEnter={submit} />
          </Form.Item>
        </Form>
      </div>
    </Modal>
  );
}
