/**
 * 系统管理 / 申报日历 (issue 29 item 9, role 1): the filing deadlines of each year — as the State Taxation
 * Administration published them (shipped with the platform), as an administrator entered them, or
 * computed by the statutory rule — and the entry of a year's twelve deadlines without a release. A
 * published year cannot be replaced. The ticking and statistics pages show the deadline of this calendar
 * (in Nuonuo mode the tax service's own).
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Card, DatePicker, Form, InputNumber, Modal, Popconfirm, Space, Table, Tag, Typography } from 'antd';
import dayjs from 'dayjs';
import { useState } from 'react';
import { filingCalendarFault, filingCalendarYear, type FilingCalendarYearView, type FilingDeadlineSource } from '@zhyy/shared';
import { systemApi } from '../../api/system';
import { feedback } from '../../ui/feedback';

const SOURCE_COLORS: Record<FilingDeadlineSource, string> = { published: 'green', entered: 'blue', computed: 'default' };
const MONTHS = Array.from({ length: 12 }, (_, i) => i + 1);
const short = (d: string) => `${Number(d.slice(5, 7))}-${d.slice(8, 10)}`;

interface Editing {
  year: number;
  days: string[];
}

/** The entry form: the year and one day per month, each picked within its month. */
function EntryModal({ editing, onClose, onSaved }: { editing: Editing; onClose: () => void; onSaved: () => void }) {
  const [year, setYear] = useState(editing.year);
  const [days, setDays] = useState<string[]>(editing.days);
  const [saving, setSaving] = useState(false);
  const fault = filingCalendarFault(year, days);
  const changeYear = (y: number | null) => {
    if (!y) return;
    setYear(y);
    // A new year starts from what the calendar says of it now.
    setDays(filingCalendarYear(y).days);
  };
  const save = async () => {
    setSaving(true);
    try {
      const res = await systemApi.saveFilingCalendar({ year, deadlines: days });
      void feedback().message.success(res.message ?? '保存成功');
      onSaved();
    } finally {
      setSaving(false);
    }
  };
  return (
    <Modal open title={`录入${year}年申报日历`} onCancel={onClose} onOk={() => void save()} okText="保存" okButtonProps={{ disabled: !!fault, loading: saving }} width={640} destroyOnHidden>
      <Form layout="inline" style={{ marginBottom: 12 }}>
        <Form.Item label="年度">
          <InputNumber aria-label="年度" min={2000} max={2100} precision={0} value={year} onChange={changeYear} />
        </Form.Item>
      </Form>
      <Form layout="horizontal" labelCol={{ span: 4 }}>
        {MONTHS.map((m) => (
          <Form.Item key={m} label={`${m}月`} style={{ marginBottom: 6 }}>
            <DatePicker
              aria-label={`${m}月申报期限`}
              allowClear={false}
              value={days[m - 1] ? dayjs(days[m - 1]) : null}
              defaultPickerValue={dayjs(`${year}-${String(m).padStart(2, '0')}-15`)}
              disabledDate={(d) => d.year() !== year || d.month() !== m - 1 || d.date() < 15}
              onChange={(d) => setDays((prev) => prev.map((x, i) => (i === m - 1 && d ? d.format('YYYY-MM-DD') : x)))}
            />
          </Form.Item>
        ))}
      </Form>
      {fault ? <Alert type="error" showIcon message={fault} data-testid="filing-fault" /> : null}
    </Modal>
  );
}

export default function FilingCalendarPage() {
  const qc = useQueryClient();
  const calendar = useQuery({ queryKey: ['system', 'filing-calendar'], queryFn: systemApi.filingCalendar });
  const [editing, setEditing] = useState<Editing | null>(null);
  const years = calendar.data?.years ?? [];
  const remove = async (year: number) => {
    const res = await systemApi.deleteFilingCalendar(year);
    void feedback().message.success(res.message ?? '删除成功');
    void qc.invalidateQueries({ queryKey: ['system', 'filing-calendar'] });
  };
  const nextYear = years.length ? Math.max(...years.map((y) => y.year)) + 1 : new Date().getFullYear() + 1;

  return (
    <Card
      title="申报日历"
      size="small"
      data-testid="filing-calendar"
      extra={<Button type="primary" onClick={() => setEditing({ year: nextYear, days: filingCalendarYear(nextYear).days })}>录入年度</Button>}
    >
      <Typography.Paragraph type="secondary">
        申报期限（勾选截止日）按税务总局每年公布的《关于明确某年度申报纳税期限的通知》；未公布的年度可由管理员录入，未录入的按《税收征收管理法实施细则》第一百零九条推算（遇周末顺延，期限内连续3日以上法定休假日按休假日天数顺延）。税务总局已公布的年度不能修改。诺税通模式下以税务端返回的期限为准。
      </Typography.Paragraph>
      <Table<FilingCalendarYearView>
        rowKey="year"
        size="small"
        loading={calendar.isLoading}
        dataSource={years}
        pagination={false}
        scroll={{ x: 1300 }}
        columns={[
          { title: '年度', dataIndex: 'year', width: 70, fixed: 'left' },
          { title: '来源', dataIndex: 'sourceLabel', width: 100, render: (t: string, y) => <Tag color={SOURCE_COLORS[y.source]}>{t}</Tag> },
          {
            title: '依据',
            dataIndex: 'basis',
            width: 220,
            render: (t: string, y) => (
              <Space direction="vertical" size={0}>
                {y.url ? <Typography.Link href={y.url} target="_blank" rel="noreferrer">{t}</Typography.Link> : <span>{t}</span>}
                {y.updatedAt ? <Typography.Text type="secondary">{y.updatedBy} {dayjs(y.updatedAt).format('YYYY-MM-DD HH:mm')}</Typography.Text> : null}
              </Space>
            ),
          },
          ...MONTHS.map((m) => ({ title: `${m}月`, key: `m${m}`, width: 62, render: (_: unknown, y: FilingCalendarYearView) => short(y.days[m - 1] ?? '') })),
          {
            title: '操作',
            key: 'op',
            width: 110,
            fixed: 'right' as const,
            render: (_: unknown, y: FilingCalendarYearView) =>
              y.editable ? (
                <Space size={0}>
                  <Button type="link" size="small" onClick={() => setEditing({ year: y.year, days: y.enteredDays ?? y.days })}>
                    {y.enteredDays ? '修改' : '录入'}
                  </Button>
                  {y.enteredDays ? (
                    <Popconfirm title={`删除${y.year}年录入的申报日历，改为按规则推算？`} onConfirm={() => remove(y.year)}>
                      <Button type="link" size="small" danger>删除</Button>
                    </Popconfirm>
                  ) : null}
                </Space>
              ) : null,
          },
        ]}
      />
      {editing ? (
        <EntryModal
          key={editing.year}
          editing={editing}
          onClose={() => setEditing(null)}
          onSaved={() => {
            setEditing(null);
            void qc.invalidateQueries({ queryKey: ['system', 'filing-calendar'] });
          }}
        />
      ) : null}
    </Card>
  );
}
