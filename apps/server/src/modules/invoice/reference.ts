/** Lookups of the entry form: projects, contracts (reference tables) and the tax classification codes. */
import type { Kysely } from 'kysely';
import type { ReferenceRow, TaxCodeRow } from '@zhyy/shared';
import type { Database } from '../../db/schema.js';
import { contains } from '../../platform/listing.js';

const LIMIT = 50;

export async function findProjects(db: Kysely<Database>, q: { keyword?: string; customer?: string }): Promise<ReferenceRow[]> {
  let s = db.selectFrom('projects').selectAll();
  if (q.keyword) s = s.where((eb) => eb.or([contains(eb.ref('name'), q.keyword!), contains(eb.ref('code'), q.keyword!)]));
  if (q.customer) s = s.where((eb) => contains(eb.ref('customer'), q.customer!));
  const rows = await s.orderBy('code', 'desc').limit(LIMIT).execute();
  return rows.map((r) => ({ id: r.id, code: r.code, name: r.name, customer: r.customer, amount: Number(r.amount), source: r.source }));
}

export async function findContracts(db: Kysely<Database>, q: { keyword?: string; customer?: string; projectId?: string }): Promise<ReferenceRow[]> {
  let s = db.selectFrom('contracts').selectAll();
  if (q.keyword) s = s.where((eb) => eb.or([contains(eb.ref('name'), q.keyword!), contains(eb.ref('code'), q.keyword!)]));
  if (q.customer) s = s.where((eb) => contains(eb.ref('customer'), q.customer!));
  if (q.projectId) s = s.where('project_id', '=', q.projectId);
  const rows = await s.orderBy('code', 'desc').limit(LIMIT).execute();
  return rows.map((r) => ({ id: r.id, code: r.code, name: r.name, customer: r.customer, amount: Number(r.amount), source: r.source, projectId: r.project_id }));
}

export async function findTaxCodes(db: Kysely<Database>, keyword?: string): Promise<TaxCodeRow[]> {
  let s = db.selectFrom('invoice_tax_codes').selectAll();
  if (keyword) s = s.where((eb) => eb.or([contains(eb.ref('name'), keyword), contains(eb.ref('short_name'), keyword), contains(eb.ref('code'), keyword)]));
  const rows = await s.orderBy('sort').orderBy('code').limit(LIMIT).execute();
  return rows.map((r) => ({ code: r.code, name: r.name, shortName: r.short_name, taxRate: r.tax_rate, policy: r.policy }));
}
