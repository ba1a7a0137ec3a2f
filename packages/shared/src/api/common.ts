/** Request and response shapes every area reuses. */
import { z } from 'zod';

/** Lists take { pageIndex, pageSize, sort?, ...filters } and return { items, total } (ARCHITECTURE.md). */
export const PageQuery = z.object({
  pageIndex: z.coerce.number().int().min(1, '页码从1开始').default(1),
  pageSize: z.coerce.number().int().min(1, '每页条数至少为1').max(500, '每页最多500条').default(20),
  sort: z
    .object({ field: z.string().max(64), order: z.enum(['ascend', 'descend']) })
    .optional(),
});
export type PageQuery = z.infer<typeof PageQuery>;

export interface PageResult<T> {
  items: T[];
  total: number;
}

export const IdBody = z.object({ id: z.string().min(1, '缺少ID').max(64) });
export type IdBody = z.infer<typeof IdBody>;

/** A UUID (the all-zero UUID is the empty id). */
export const Uuid = z.string().regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i, 'ID格式不正确');
