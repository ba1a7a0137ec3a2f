/** 成本中心, 差旅标准, 城市分类 and 人员职级 tabs of 报销设置. */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Checkbox, Form, Input, InputNumber, Modal, Popconfirm, Select, Space, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { REIMB_SEAT_CLASSES, ReimbCityTier, ReimbCostCentreBody, ReimbGrade, type ReimbCostCentreView, type ReimbGradeRow, type ReimbSettingView, type ReimbStandardView, type ReimbStandardsBody } from '@zhyy/shared';
import { reimbSettingApi } from '../../../api/reimbursementSettings';
import { tablePagination } from '../../../components/listTable';
import { zodRule } from '../../../components/zodRule';
import { useSettingChange } from './settingChange';

export function CostCentreTab({ s }: { s: ReimbSettingView }) {
  const change = useSettingChange();
  const [onlyMissing, setOnlyMissing] = useState(false);
  const [editing, setEditing] = useState<ReimbCostCentreView | null>(null);
  const [form] = Form.useForm<{ centreCode: string; centreName: string }>();
  const missing = s.costCentres.filter((c) => !c.centreCode).length;
  const rows = onlyMissing ? s.costCentres.filter((c) => !c.centreCode) : s.costCentres;
  const open = (r: ReimbCostCentreView) => {
    setEditing(r);
    form.setFieldsValue({ centreCode: r.centreCode, centreName: r.centreName || r.deptName });
  };
  return (
    <>
      <Space style={{ marginBottom: 12 }}>
        <Checkbox checked={onlyMissing} onChange={(e) => setOnlyMissing(e.target.checked)}>只看未设置成本中心的部门</Checkbox>
        <Typography.Text type={missing ? 'warning' : 'secondary'}>{missing ? `${missing} 个部门未设置成本中心` : '每个部门都已设置成本中心'}</Typography.Text>
      </Space>
      <Table<ReimbCostCentreView>
        size="small" rowKey="deptId" dataSource={rows} pagination={false}
        columns={[
          { title: '部门', dataIndex: 'deptPath' },
          { title: '成本中心编码', dataIndex: 'centreCode', width: 160, render: (v: string) => v || <Tag color="warning">未设置</Tag> },
          { title: '成本中心名称', dataIndex: 'centreName', width: 200 },
          {
            title: '操作', width: 140, render: (_, r) => (
              <Space>
                <Button type="link" size="small" onClick={() => open(r)}>设置</Button>
                {r.centreCode ? (
                  <Popconfirm title={`取消「${r.deptName}」的成本中心？`} okText="确定" cancelText="取消" onConfirm={() => change(() => reimbSettingApi.deleteCostCentre(r.deptId))}>
                    <Button type="link" size="small" danger>取消</Button>
                  </Popconfirm>
                ) : null}
              </Space>
            ),
          },
        ]}
      />
      <Modal open={editing !== null} title={`设置成本中心：${editing?.deptName ?? ''}`} okText="保存" cancelText="取消" onOk={() => form.submit()} onCancel={() => setEditing(null)} forceRender>
        <Form form={form} layout="vertical" name="reimb-centre" onFinish={(v) => void change(() => reimbSettingApi.saveCostCentre(editing!.deptId, v.centreCode.trim(), v.centreName.trim())).then((ok) => ok && setEditing(null))}>
          <Form.Item name="centreCode" label="成本中心编码" rules={[{ required: true, message: '请填写成本中心编码' }, zodRule(ReimbCostCentreBody.shape.centreCode, '成本中心编码')]}><Input maxLength={30} /></Form.Item>
          <Form.Item name="centreName" label="成本中心名称" rules={[{ required: true, message: '请填写成本中心名称' }, zodRule(ReimbCostCentreBody.shape.centreName, '成本中心名称')]}><Input maxLength={50} /></Form.Item>
        </Form>
      </Modal>
    </>
  );
}

type Cell = { hotel: number; allowance: number; seats: string[] };
const keyOf = (g: string, t: number) => `${g}:${t}`;

/** The grid: a row per grade, a column per city tier; each cell the hotel per night, the seat classes and the daily allowance. */
export function StandardTab({ s }: { s: ReimbSettingView }) {
  const change = useSettingChange();
  const init = () => Object.fromEntries(s.standards.map((x) => [keyOf(x.grade, x.cityTier), { hotel: x.hotelPerNight / 100, allowance: x.allowancePerDay / 100, seats: x.seatClasses }])) as Record<string, Cell>;
  const [cells, setCells] = useState<Record<string, Cell>>(init);
  const [saving, setSaving] = useState(false);
  const set = (k: string, p: Partial<Cell>) => setCells((c) => ({ ...c, [k]: { ...(c[k] ?? { hotel: 0, allowance: 0, seats: [] }), ...p } }));
  const save = async () => {
    setSaving(true);
    const items: ReimbStandardView[] = [];
    for (const g of ReimbGrade.values) for (const t of ReimbCityTier.values) {
      const c = cells[keyOf(g, t)];
      if (c) items.push({ grade: g, cityTier: t, hotelPerNight: Math.round(c.hotel * 100), allowancePerDay: Math.round(c.allowance * 100), seatClasses: c.seats });
    }
    await change(() => reimbSettingApi.saveStandards({ items } as ReimbStandardsBody));
    setSaving(false);
  };
  return (
    <>
      <Table
        size="small" rowKey="grade" pagination={false} bordered
        dataSource={ReimbGrade.options.map((o) => ({ grade: o.value, label: o.label }))}
        columns={[
          { title: '职级', dataIndex: 'label', width: 110 },
          ...ReimbCityTier.options.map((t) => ({
            title: t.label,
            render: (_: unknown, r: { grade: string; label: string }) => {
              const k = keyOf(r.grade, t.value);
              const c = cells[k] ?? { hotel: 0, allowance: 0, seats: [] };
              return (
                <Space direction="vertical" size={4} style={{ width: '100%' }}>
                  <InputNumber addonBefore="住宿" addonAfter="元/晚" min={0} max={1_000_000} precision={2} value={c.hotel} aria-label={`${r.label}${t.label}住宿标准`} onChange={(v) => set(k, { hotel: Number(v ?? 0) })} style={{ width: '100%' }} />
                  <InputNumber addonBefore="补助" addonAfter="元/天" min={0} max={1_000_000} precision={2} value={c.allowance} aria-label={`${r.label}${t.label}补助标准`} onChange={(v) => set(k, { allowance: Number(v ?? 0) })} style={{ width: '100%' }} />
                  <Select mode="multiple" placeholder="可乘坐席别" value={c.seats} aria-label={`${r.label}${t.label}席别`} options={REIMB_SEAT_CLASSES.map((x) => ({ value: x, label: x }))} onChange={(v: string[]) => set(k, { seats: v })} style={{ width: '100%' }} />
                </Space>
              );
            },
          })),
        ]}
      />
      <Space style={{ marginTop: 12 }}>
        <Button type="primary" loading={saving} onClick={() => void save()}>保存差旅标准</Button>
        <Button onClick={() => setCells(init())}>恢复</Button>
        <Typography.Text type="secondary">住宿按每晚、补助按每天（元）；席别为该职级在该类城市可乘坐的席别。</Typography.Text>
      </Space>
    </>
  );
}

export function CityTab({ s }: { s: ReimbSettingView }) {
  const change = useSettingChange();
  const [city, setCity] = useState('');
  const [tier, setTier] = useState<number>(ReimbCityTier.second);
  const add = async () => {
    if (!city.trim()) return;
    if (await change(() => reimbSettingApi.addCity(city.trim(), tier))) setCity('');
  };
  return (
    <>
      <Space style={{ marginBottom: 12 }}>
        <Input placeholder="城市名称，如 盐城" value={city} maxLength={20} onChange={(e) => setCity(e.target.value)} aria-label="城市" style={{ width: 200 }} onPressEnter={() => void add()} />
        <Select value={tier} onChange={setTier} aria-label="城市分类" style={{ width: 120 }} options={[ReimbCityTier.first, ReimbCityTier.second].map((t) => ({ value: t, label: ReimbCityTier.label(t) }))} />
        <Button type="primary" onClick={() => void add()}>添加城市</Button>
        <Typography.Text type="secondary">未列出的城市按其他城市（三类）执行差旅标准。</Typography.Text>
      </Space>
      {[ReimbCityTier.first, ReimbCityTier.second].map((t) => (
        <div key={t} style={{ marginBottom: 12 }} data-testid={`tier-${t}`}>
          <Typography.Title level={5}>{ReimbCityTier.label(t)}</Typography.Title>
          {s.cities.filter((c) => c.tier === t).map((c) => (
            <Tag key={c.city} closable closeIcon={<span aria-label={`移除${c.city}`}>×</span>} onClose={(e) => { e.preventDefault(); void change(() => reimbSettingApi.deleteCity(c.city)); }} style={{ marginBottom: 6 }}>{c.city}</Tag>
          ))}
        </div>
      ))}
    </>
  );
}

export function GradeTab() {
  const qc = useQueryClient();
  const [keyword, setKeyword] = useState('');
  const [page, setPage] = useState({ pageIndex: 1, pageSize: 20 });
  const q = useQuery({ queryKey: ['reimbursement', 'grades', keyword, page], queryFn: () => reimbSettingApi.grades({ ...page, ...(keyword ? { keyword } : {}) }) });
  const save = async (userId: string, grade: string) => {
    try {
      await reimbSettingApi.saveGrade(userId, grade);
      void qc.invalidateQueries({ queryKey: ['reimbursement', 'grades'] });
    } catch {
      /* shown by the API client */
    }
  };
  return (
    <>
      <Space style={{ marginBottom: 12 }}>
        <Input.Search placeholder="姓名或登录名" allowClear onSearch={(v) => { setKeyword(v.trim()); setPage((p) => ({ ...p, pageIndex: 1 })); }} style={{ width: 240 }} aria-label="搜索人员" />
        <Typography.Text type="secondary">未设置职级的人员按默认规则：部门负责人为「部门负责人」，其余为「员工」。</Typography.Text>
      </Space>
      <Table<ReimbGradeRow>
        size="small" rowKey="userId" loading={q.isLoading} dataSource={q.data?.items ?? []}
        pagination={tablePagination(page, q.data?.total ?? 0, '人')}
        onChange={(p) => setPage({ pageIndex: p.current ?? 1, pageSize: p.pageSize ?? 20 })}
        columns={[
          { title: '姓名', dataIndex: 'name', width: 110 },
          { title: '登录名', dataIndex: 'loginName', width: 130 },
          { title: '部门', dataIndex: 'deptName' },
          { title: '职务', dataIndex: 'position', width: 130, render: (v: string, r) => <>{v}{r.isManager ? <Tag color="blue" style={{ marginLeft: 6 }}>部门负责人</Tag> : null}</> },
          { title: '执行职级', dataIndex: 'effectiveGrade', width: 110, render: (v: string) => ReimbGrade.label(v) },
          {
            title: '设置职级', width: 190, render: (_, r) => (
              <Select size="small" style={{ width: 170 }} value={r.grade} aria-label={`${r.name}的职级`} onChange={(g: string) => void save(r.userId, g)}
                options={[{ value: '', label: '按默认规则' }, ...ReimbGrade.options.map((o) => ({ value: o.value, label: o.label }))]} />
            ),
          },
        ]}
      />
    </>
  );
}
