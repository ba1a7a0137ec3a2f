/**
 * Issue 16, what the database itself enforces (migration 0034_cost), on both engines: price windows of
 * one item, spec and unit never overlap (an empty end is open), even for two saves at once; one live
 * order per month, department and project (an invalid one does not count).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PRICE_OVERLAP } from '../src/db/migrations/0034_cost.js';
import '../src/modules/cost/tables.js';
import { startTestServer, type TestServer } from './helpers.js';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({ demo: false });
});
afterAll(() => s?.close());
const k = () => s.db.kysely;
const now = new Date().toISOString();
let n = 0;
const price = (itemCode: string, validFrom: string, validTo: string | null, spec = '') => ({
  id: `00000000-0000-4000-8000-${String(++n).padStart(12, '0')}`, item_code: itemCode, item_name: '测试', category: 'labour', spec, unit: '工日',
  unit_price: '350.5', tax_rate: '0.03', valid_from: validFrom, valid_to: validTo, updated_by: '', created_at: now, updated_at: now,
});
const insert = (p: ReturnType<typeof price>) => k().insertInto('cost_prices').values(p).execute();

describe('price windows never overlap (trigger)', () => {
  it('refuses an overlapping window of the same item, spec and unit; allows adjacent ones and other specs', async () => {
    await insert(price('R1', '2026-01-01', '2026-06-30'));
    await insert(price('R1', '2026-07-01', null));
    await expect(insert(price('R1', '2026-06-30', '2026-06-30'))).rejects.toThrow(PRICE_OVERLAP);
    await expect(insert(price('R1', '2027-03-01', '2027-03-31'))).rejects.toThrow(PRICE_OVERLAP);
    await expect(insert(price('R1', '2025-01-01', null))).rejects.toThrow(PRICE_OVERLAP);
    await insert(price('R1', '2025-01-01', '2025-12-31'));
    await insert(price('R1', '2026-03-01', null, '高级'));
  });

  it('refuses an update that makes a window overlap', async () => {
    const a = price('R2', '2026-01-01', '2026-01-31');
    await insert(a);
    await insert(price('R2', '2026-02-01', '2026-02-28'));
    await expect(k().updateTable('cost_prices').set({ valid_to: '2026-02-01' }).where('id', '=', a.id).execute()).rejects.toThrow(PRICE_OVERLAP);
    await k().updateTable('cost_prices').set({ unit_price: '400' }).where('id', '=', a.id).execute();
  });

  it('lets only one of two concurrent overlapping saves in', async () => {
    const results = await Promise.allSettled(
      [price('R3', '2026-01-01', null), price('R3', '2026-05-01', null)].map((p) => s.db.kysely.transaction().execute((trx) => trx.insertInto('cost_prices').values(p).execute())),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    expect(await k().selectFrom('cost_prices').select('id').where('item_code', '=', 'R3').execute()).toHaveLength(1);
  });
});

describe('one live order per month, department and project', () => {
  it('refuses a second live order; an invalid one does not count', async () => {
    const dept = { id: '00000000-0000-4000-8000-00000000d001', name: '测试部门' };
    await k().insertInto('departments').values({ ...dept, parent_id: null, sort: 0, manager_id: null, created_at: now, updated_at: now }).execute();
    await k().insertInto('projects').values({ id: '00000000-0000-4000-8000-00000000a001', code: 'XM-T', name: '测试项目', customer: '', amount: 0, source: 0, is_temp: 0, created_at: now, updated_at: now }).execute();
    const order = (id: string, no: string, state: number) => ({
      id, order_no: no, month: '2026-10', dept_id: dept.id, dept_name: dept.name, project_id: '00000000-0000-4000-8000-00000000a001', project_code: 'XM-T', project_name: '测试项目',
      source: 'entry', state, invalid_reason: '', amount: 0, tax: 0, line_count: 0, remark: '', pms_ref: '', audited_by: '', audited_at: null, created_by_id: null, created_by: '', created_at: now, updated_at: now,
    });
    await k().insertInto('cost_orders').values(order('00000000-0000-4000-8000-00000000b001', 'CB2026100001', 2)).execute();
    await k().insertInto('cost_orders').values(order('00000000-0000-4000-8000-00000000b002', 'CB2026100002', 0)).execute();
    await expect(k().insertInto('cost_orders').values(order('00000000-0000-4000-8000-00000000b003', 'CB2026100003', 1)).execute()).rejects.toThrow();
    await k().updateTable('cost_orders').set({ state: 2 }).where('id', '=', '00000000-0000-4000-8000-00000000b002').execute();
    await k().insertInto('cost_orders').values(order('00000000-0000-4000-8000-00000000b003', 'CB2026100003', 1)).execute();
  });
});
