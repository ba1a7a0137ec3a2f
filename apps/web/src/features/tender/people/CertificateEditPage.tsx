/**
 * 新增资格证书 / 修改资格证书: holder, kind (its levels and whether it has specialities), number, issuer, valid
 * from / to, registered company, remark. An empty end is derived by the server from the kind's default years
 * (shown here before saving); 长期有效 keeps it open. The server's refusal (a number already used for the
 * kind) is shown in place. For a kind with a renewal window (延期办理期) the day renewal may begin is shown
 * under the end day (可于 YYYY-MM-DD 起办理延期). The scans come with the attachment panel (PeopleScans).
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Card, Checkbox, DatePicker, Form, Input, Select, Space, Spin, Typography } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { defaultValidTo, renewalStart, type CertificateBody, type CertKind } from '@zhyy/shared';
import { certificateApi } from '../../../api/tender-people';
import { RecordNotFound } from '../../../components/RecordNotFound';
import { feedback } from '../../../ui/feedback';
import { kindOptions, PEOPLE_KEY, PEOPLE_PATHS, PersonPicker, useCertKinds } from './common';
import { PeopleScans } from './PeopleScans';

export interface CertFormValues {
  userId?: string;
  kindId?: string;
  level?: string;
  speciality?: string;
  certNo?: string;
  issuer?: string;
  validFrom?: Dayjs | null;
  validTo?: Dayjs | null;
  permanent?: boolean;
  company?: string;
  remark?: string;
}

const day = (d: Dayjs | null | undefined) => (d ? d.format('YYYY-MM-DD') : null);

/** The body of a save; a speciality typed for another kind is not sent when the chosen kind has none. */
export function toCertBody(v: CertFormValues, id?: string, kind?: CertKind): CertificateBody {
  return {
    ...(id ? { id } : {}),
    userId: v.userId ?? '', kindId: v.kindId ?? '', level: v.level ?? '', speciality: kind && !kind.hasSpeciality ? '' : (v.speciality?.trim() ?? ''), certNo: v.certNo?.trim() ?? '', issuer: v.issuer?.trim() ?? '',
    validFrom: day(v.validFrom) ?? '', validTo: v.permanent ? null : day(v.validTo), permanent: !!v.permanent, company: v.company?.trim() ?? '', remark: v.remark?.trim() ?? '',
  };
}

/** What the end will be when left empty. */
export function derivedEndText(kind: CertKind | undefined, validFrom: Dayjs | null | undefined): string {
  if (!kind || !validFrom) return '';
  const to = defaultValidTo(validFrom.format('YYYY-MM-DD'), kind.validYears);
  return to ? `留空按${kind.name}默认${kind.validYears}年计算：${to}` : `${kind.name}没有默认有效年限，留空为长期有效`;
}

/** 可于 YYYY-MM-DD 起办理延期, for the end day the form will save (given, or derived from the start), or ''. */
export function renewalText(kind: CertKind | undefined, validFrom: Dayjs | null | undefined, validTo: Dayjs | null | undefined, permanent: boolean | undefined): string {
  if (!kind?.renewMonths || permanent) return '';
  const end = validTo ? validTo.format('YYYY-MM-DD') : validFrom ? defaultValidTo(validFrom.format('YYYY-MM-DD'), kind.validYears) : null;
  const from = renewalStart(end, kind.renewMonths);
  return from ? `可于 ${from} 起办理延期（${kind.name}到期前${kind.renewMonths}个月内）` : '';
}

export default function CertificateEditPage() {
  const { id } = useParams();
  const editing = !!id;
  const navigate = useNavigate();
  const qc = useQueryClient();
  const [form] = Form.useForm<CertFormValues>();
  const [error, setError] = useState('');
  const [saving, setSaving] = useState(false);
  const kinds = useCertKinds();
  const detail = useQuery({ queryKey: [...PEOPLE_KEY, 'certificate', id], queryFn: () => certificateApi.detail(id!), enabled: editing });
  const kindId = Form.useWatch('kindId', form);
  const validFrom = Form.useWatch('validFrom', form);
  const permanent = Form.useWatch('permanent', form);
  const validTo = Form.useWatch('validTo', form);
  const kind = kinds.data?.find((k) => k.id === kindId);
  if (editing && detail.isError) return <RecordNotFound what="资格证书" error={detail.error} back={PEOPLE_PATHS.certificates} backLabel="返回资格证书" />;
  if ((editing && detail.isLoading) || kinds.isLoading) return <Spin style={{ display: 'block', margin: 48 }} />;
  const d = detail.data;
  const initial: CertFormValues = d
    ? { userId: d.userId, kindId: d.kindId, level: d.level || undefined, speciality: d.speciality, certNo: d.certNo, issuer: d.issuer, validFrom: dayjs(d.validFrom), validTo: d.validTo ? dayjs(d.validTo) : null, permanent: !d.validTo, company: d.company, remark: d.remark }
    : { company: '华建工程技术服务有限公司' };
  const save = async (v: CertFormValues) => {
    setError('');
    setSaving(true);
    try {
      const a = await certificateApi.save(toCertBody(v, id, kinds.data?.find((k) => k.id === v.kindId)), { silent: true });
      void feedback().message.success(a.message || '保存成功');
      void qc.invalidateQueries({ queryKey: PEOPLE_KEY });
      navigate(PEOPLE_PATHS.certificates);
    } catch (e) {
      setError(e instanceof Error ? e.message : '保存失败');
    } finally {
      setSaving(false);
    }
  };
  return (
    <Card title={editing ? '修改资格证书' : '新增资格证书'} data-testid="certificate-edit">
      <Form form={form} layout="horizontal" labelCol={{ flex: '110px' }} style={{ maxWidth: 720 }} initialValues={initial} onFinish={save} name="tender-cert-edit">
        <Form.Item name="userId" label="持证人" rules={[{ required: true, message: '请选择持证人' }]}><PersonPicker current={d ? { userId: d.userId, name: d.holderName } : undefined} width={320} /></Form.Item>
        <Form.Item name="kindId" label="证书种类" rules={[{ required: true, message: '请选择证书种类' }]}>
          <Select options={kindOptions(kinds.data)} placeholder="请选择" style={{ width: 320 }} onChange={() => form.setFieldValue('level', undefined)} data-testid="cert-kind" />
        </Form.Item>
        {kind?.levels.length ? (
          <Form.Item name="level" label="级别" rules={[{ required: true, message: '请选择级别' }]}>
            <Select options={kind.levels.map((l) => ({ value: l, label: l }))} placeholder="请选择" style={{ width: 160 }} />
          </Form.Item>
        ) : null}
        {kind?.hasSpeciality ? <Form.Item name="speciality" label="专业" rules={[{ required: true, whitespace: true, message: `请填写${kind.name}的专业` }]}><Input maxLength={50} style={{ width: 320 }} /></Form.Item> : null}
        <Form.Item name="certNo" label="证书编号" rules={[{ required: true, whitespace: true, message: '请填写证书编号' }]}><Input maxLength={50} style={{ width: 320 }} /></Form.Item>
        <Form.Item name="issuer" label="发证机关"><Input maxLength={100} /></Form.Item>
        <Form.Item name="validFrom" label="有效期起" rules={[{ required: true, message: '请选择有效期起' }]}><DatePicker style={{ width: 160 }} /></Form.Item>
        <Form.Item
          label="有效期至"
          extra={
            <>
              <div>{permanent ? '长期有效，不设到期日' : derivedEndText(kind, validFrom)}</div>
              {renewalText(kind, validFrom, validTo, permanent) ? <div data-testid="cert-renewal">{renewalText(kind, validFrom, validTo, permanent)}</div> : null}
            </>
          }
        >
          <Space>
            <Form.Item
              name="validTo"
              noStyle
              dependencies={['validFrom']}
              rules={[({ getFieldValue }) => ({ validator: async (_r, v: Dayjs | null) => { const f = getFieldValue('validFrom') as Dayjs | null; if (v && f && v.isBefore(f, 'day')) throw new Error('有效期至不能早于有效期起'); } })]}
            >
              <DatePicker style={{ width: 160 }} disabled={!!permanent} />
            </Form.Item>
            <Form.Item name="permanent" valuePropName="checked" noStyle><Checkbox onChange={(e) => e.target.checked && form.setFieldValue('validTo', null)}>长期有效</Checkbox></Form.Item>
          </Space>
        </Form.Item>
        <Form.Item name="company" label="注册单位"><Input maxLength={100} /></Form.Item>
        <Form.Item name="remark" label="备注"><Input.TextArea maxLength={500} rows={2} /></Form.Item>
        {error ? <Alert type="error" showIcon title={error} style={{ marginBottom: 16 }} data-testid="cert-error" /> : null}
        <Form.Item label=" " colon={false}>
          <Space>
            <Button type="primary" htmlType="submit" loading={saving} data-testid="cert-save">保存</Button>
            <Button onClick={() => navigate(PEOPLE_PATHS.certificates)}>返回</Button>
          </Space>
        </Form.Item>
      </Form>
      {editing && d ? <PeopleScans ownerKind="certificate" ownerId={d.id} /> : <Typography.Text type="secondary">保存后可上传证书扫描件。</Typography.Text>}
    </Card>
  );
}
