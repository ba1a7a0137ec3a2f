/** What the export pages' pick tables and result tables share. */
import { Space, Tag, Typography, type TableProps } from 'antd';

/** A check's verdict: each problem in red, or a green tag (通过, 截止日有效…) when there is none. */
export function Verdict({ problems, passed }: { problems: readonly string[]; passed: string }) {
  if (!problems.length) return <Tag color="green">{passed}</Tag>;
  return (
    <Space orientation="vertical" size={0}>
      {problems.map((p) => (
        <Typography.Text key={p} type="danger">
          {p}
        </Typography.Text>
      ))}
    </Space>
  );
}

/** At most this many picks go into one export. */
export const MAX_PICKS = 200;

/**
 * The selection (kept across pages and filters, at most MAX_PICKS) and the paging of a pick table.
 */
export function pickTableProps<T>(o: {
  picked: string[];
  onPick: (ids: string[]) => void;
  page: { pageIndex: number; pageSize: number };
  onPage: (p: { pageIndex: number; pageSize: number }) => void;
  total: number;
}): Pick<TableProps<T>, 'rowSelection' | 'pagination'> {
  return {
    rowSelection: { selectedRowKeys: o.picked, preserveSelectedRowKeys: true, onChange: (keys) => o.onPick(keys.map(String).slice(0, MAX_PICKS)) },
    pagination: {
      current: o.page.pageIndex,
      pageSize: o.page.pageSize,
      total: o.total,
      showSizeChanger: true,
      showTotal: (n) => `共 ${n} 条`,
      onChange: (pageIndex, pageSize) => o.onPage({ pageIndex, pageSize }),
    },
  };
}
