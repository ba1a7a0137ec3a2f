/**
 * The list page every area reuses: a filter bar, a server-paginated and sortable table, an optional
 * Excel export of the same filters, and loading and empty states. Filters apply on 查询 (or Enter);
 * 重置 restores the initial ones (or clears them all, resetClearsInitial). The query key is the area's own,
 * so a change elsewhere can invalidate it. A page whose filters depend on each other passes its own form.
 */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Card, Form, Space, Table, type FormInstance, type TableColumnsType, type TableProps } from 'antd';
import { useState, type ReactNode } from 'react';
import type { PageResult } from '@zhyy/shared';
import type { ListParams } from '../api/system';
import { ExportButton } from './ExportButton';
import { pageFromTable, sortFromTable, tableLocale, tablePagination, type TableSort, FilterButtons } from './listTable';
import { tableScrollX } from './tableWidth';
import './listPage.css';
import { refetchWhileSettling } from './settlePoll';

type Filters = Record<string, unknown>;

export interface ListPageProps<T> {
  queryKey: readonly unknown[];
  fetch: (params: ListParams) => Promise<PageResult<T>>;
  columns: TableColumnsType<T>;
  rowKey: string | ((row: T) => string);
  /** Form.Item elements of the filter bar. */
  filters?: ReactNode;
  initialFilters?: Filters;
  /** 重置 empties every filter, the initial ones too (initial filters taken from the address, ?state= …). */
  resetClearsInitial?: boolean;
  /** The filter bar's form, when the page watches or sets its fields (a select whose options follow another). */
  form?: FormInstance;
  /** Form values to request fields (a date range to from/to, blanks dropped …). */
  toRequest?: (values: Filters) => Filters;
  /** Buttons at the right of the filter bar (新增 …). */
  actions?: ReactNode;
  export?: { fileName: string; run: (filters: Filters) => Promise<Blob> };
  /** A streamed export with progress (the page renders ExportProgress): the current filters and sort as the body, the list's total. */
  exportWith?: (body: Filters, total: number) => ReactNode;
  /** Shown between the filter bar and the table, with the page's data. */
  header?: (data: PageResult<T> | undefined) => ReactNode;
  rowClassName?: TableProps<T>['rowClassName'];
  emptyText?: string;
  /** What the rows are counted in (共 N 条 by default: 人, 本…). */
  unit?: string;
  pageSize?: number;
  /** The table's least width; the columns' total width when larger (see tableScrollX). */
  scrollX?: number;
  testId?: string;
  /** While true for the page's data (a record still settling at the tax service), the page reloads with a growing step. */
  refetchWhile?: (data: PageResult<T>) => boolean;
}

const dropBlank = (v: Filters): Filters => Object.fromEntries(Object.entries(v).filter(([, x]) => x !== undefined && x !== null && x !== ''));

export function ListPage<T extends object>(props: ListPageProps<T>) {
  const [form] = Form.useForm(props.form);
  const toRequest = (values: Filters) => dropBlank(props.toRequest ? props.toRequest(values) : values);
  const [filters, setFilters] = useState<Filters>(() => toRequest(props.initialFilters ?? {}));
  const [page, setPage] = useState({ pageIndex: 1, pageSize: props.pageSize ?? 20 });
  const [sort, setSort] = useState<TableSort>();
  const params: ListParams = { ...filters, ...page, ...(sort ? { sort } : {}) };
  const [refetchInterval] = useState(() => (props.refetchWhile ? refetchWhileSettling(props.refetchWhile) : undefined));
  const scrollX = tableScrollX(props.columns, props.scrollX);
  const query = useQuery({ queryKey: [...props.queryKey, params], queryFn: () => props.fetch(params), placeholderData: keepPreviousData, refetchInterval });

  const apply = (values: Filters) => {
    setFilters(toRequest(values));
    setPage((p) => ({ ...p, pageIndex: 1 }));
  };
  const reset = () => {
    form.resetFields();
    if (!props.resetClearsInitial) return apply(props.initialFilters ?? {});
    form.setFieldsValue(Object.fromEntries(Object.keys(props.initialFilters ?? {}).map((k) => [k, undefined])));
    apply({});
  };

  return (
    <div className="list-page" data-testid={props.testId}>
      <Card className="list-page-filters" size="small">
        <Form form={form} name={`list-${props.queryKey.join('-')}`} layout="inline" initialValues={props.initialFilters} onFinish={apply} className="list-page-form">
          {props.filters}
          <FilterButtons onReset={reset} />
          <div className="list-page-actions">
            <Space wrap>
              {props.actions}
              {props.exportWith?.({ ...filters, ...(sort ? { sort } : {}) }, query.data?.total ?? 0)}
              {props.export ? <ExportButton fileName={props.export.fileName} run={() => props.export!.run(filters)} disabled={!query.data?.total} /> : null}
            </Space>
          </div>
        </Form>
      </Card>
      {props.header?.(query.data)}
      <Card size="small" className="list-page-table">
        <Table<T>
          rowKey={props.rowKey}
          columns={props.columns}
          dataSource={query.data?.items ?? []}
          loading={query.isFetching}
          rowClassName={props.rowClassName}
          scroll={scrollX ? { x: scrollX } : undefined}
          locale={tableLocale(query.isError, props.emptyText)}
          pagination={tablePagination(page, query.data?.total ?? 0, props.unit)}
          onChange={(p, _f, sorter) => {
            setSort(sortFromTable(sorter));
            setPage(pageFromTable(p, page));
          }}
        />
      </Card>
    </div>
  );
}
