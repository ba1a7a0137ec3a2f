/**
 * 人员编辑: one person's facts — ID card number (full here; its check character is checked before sending),
 * gender, birth day (filled from the ID card number when empty), education, school, major, graduation and
 * hire days, remark. Name, department and position come from 系统用户 and are shown read-only.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Card, DatePicker, Descriptions, Form, Input, Select, Space, Spin } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { idCardBirthDay, idCardProblem, type PersonnelBody } from '@zhyy/shared';
import { personnelApi } from '../../../api/tender-people';
import { RecordNotFound } from '../../../components/RecordNotFound';
import { feedback } from '../../../ui/feedback';
import { EDUCATION_OPTIONS, GENDER_OPTIONS, PEOPLE_KEY, PEOPLE_PATHS } from './common';

export interface PersonnelFormValues {
  idCard?: string; gender?: number; birthDate?: Dayjs | null; education?: number; school?: string; major?: string;
  graduationDate?: Dayjs | null; hireDate?: Dayjs | null; remark?: string;
}
const day = (d: Dayjs | null | undefined) => (d ? d.format('YYYY-MM-DD') : null);
const dj = (s: string | null) => (s ? dayjs(s) : null);

export function toPersonnelBody(userId: string, v: PersonnelFormValues): PersonnelBody {
  return {
    userId, idCard: (v.idCard ?? '').trim().toUpperCase(), gender: v.gender ?? 0, birthDate: day(v.birthDate), education: v.education ?? 0, school: v.school?.trim() ?? '',
    major: v.major?.trim() ?? '', graduationDate: day(v.graduationDate), hireDate: day(v.hireDate), remark: v.remark?.trim() ?? '',
  };
}

export default function PersonnelEditPage() {
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const qc = useQueryClient();
  const [form] = Form.useForm<PersonnelFormValues>();
  const [error, setError] = useState('');
  const [saving, setSaving] = useState(false);
  const detail = useQuery({ queryKey: [...PEOPLE_KEY, 'personnel', id], queryFn: () => personnelApi.detail(id) });
  if (detail.isError) return <RecordNotFound what="人员" error={detail.error} back={PEOPLE_PATHS.personnel} backLabel="返回人员信息" />;
  if (detail.isLoading || !detail.data) return <Spin style={{ display: 'block', margin: 48 }} />;
  const f = detail.data.facts;
  const initial: PersonnelFormValues = {
    idCard: f.idCard, gender: f.gender || undefined, birthDate: dj(f.birthDate), education: f.education || undefined, school: f.school, major: f.major,
    graduationDate: dj(f.graduationDate), hireDate: dj(f.hireDate), remark: f.remark,
  };
  const save = async (v: PersonnelFormValues) => {
    setError('');
    setSaving(true);
    try {
      const a = await personnelApi.save(toPersonnelBody(id, v), { silent: true });
      void feedback().message.success(a.message || '保存成功');
      void qc.invalidateQueries({ queryKey: PEOPLE_KEY });
      navigate(PEOPLE_PATHS.personnelDetail(id));
    } catch (e) {
      setError(e instanceof Error ? e.message : '保存失败');
    } finally {
      setSaving(false);
    }
  };
  return (
    <Card title={`人员编辑：${f.name}`} data-testid="personnel-edit">
      <Descriptions size="small" column={3} style={{ marginBottom: 16, maxWidth: 900 }} items={[
        { key: 'name', label: '姓名', children: `${f.name}（${f.loginName}）` },
        { key: 'dept', label: '部门', children: f.deptName },
        { key: 'position', label: '职务', children: f.position },
      ]} />
      <Form form={form} layout="horizontal" labelCol={{ flex: '110px' }} style={{ maxWidth: 720 }} initialValues={initial} onFinish={save} name="tender-personnel-edit">
        <Form.Item
          name="idCard"
          label="身份证号"
          rules={[{ validator: async (_r, v: string | undefined) => { const t = (v ?? '').trim().toUpperCase(); const p = t ? idCardProblem(t) : null; if (p) throw new Error(p); } }]}
        >
          <Input
            maxLength={18}
            style={{ width: 240 }}
            onBlur={(e) => {
              const t = e.target.value.trim().toUpperCase();
              if (!idCardProblem(t) && !form.getFieldValue('birthDate')) form.setFieldValue('birthDate', dayjs(idCardBirthDay(t)));
              if (!idCardProblem(t) && !form.getFieldValue('gender')) form.setFieldValue('gender', Number(t[16]) % 2 ? 1 : 2);
            }}
            data-testid="id-card"
          />
        </Form.Item>
        <Form.Item name="gender" label="性别"><Select allowClear options={GENDER_OPTIONS} style={{ width: 120 }} /></Form.Item>
        <Form.Item name="birthDate" label="出生日期"><DatePicker style={{ width: 160 }} /></Form.Item>
        <Form.Item name="education" label="学历"><Select allowClear options={EDUCATION_OPTIONS} style={{ width: 160 }} /></Form.Item>
        <Form.Item name="school" label="毕业院校"><Input maxLength={50} style={{ width: 320 }} /></Form.Item>
        <Form.Item name="major" label="专业"><Input maxLength={50} style={{ width: 320 }} /></Form.Item>
        <Form.Item name="graduationDate" label="毕业日期"><DatePicker style={{ width: 160 }} /></Form.Item>
        <Form.Item name="hireDate" label="入职日期"><DatePicker style={{ width: 160 }} /></Form.Item>
        <Form.Item name="remark" label="备注"><Input.TextArea maxLength={500} rows={2} /></Form.Item>
        {error ? <Alert type="error" showIcon title={error} style={{ marginBottom: 16 }} data-testid="personnel-error" /> : null}
        <Form.Item label=" " colon={false}>
          <Space>
            <Button type="primary" htmlType="submit" loading={saving} data-testid="personnel-save">保存</Button>
            <Button onClick={() => navigate(PEOPLE_PATHS.personnelDetail(id))}>返回</Button>
          </Space>
        </Form.Item>
      </Form>
    </Card>
  );
}
