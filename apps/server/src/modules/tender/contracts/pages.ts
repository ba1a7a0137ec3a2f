/**
 * A contract's attachment pages (SPEC section 3: CONTRACT_PAGES of its type; REQUIRED_PAGES those it
 * must have). The scans are stored by the attachment layer (modules/tender/attachment, table
 * tender_attachments): a contract is the owner 'contract', registered here — read by the contract-read
 * pages' roles, uploaded and deleted by the edit page's (1, 4, 6, 7, 8), of its type's page kinds only.
 * Completeness is derived from the stored pages whenever it is read (`missingPagesSql`, over the index
 * tender_attachments(owner_kind, owner_id, kind)), never typed or cached, so an upload or a delete shows
 * at once in the list, its filter and the detail.
 */
import type { FastifyRequest } from 'fastify';
import { sql, type Kysely, type RawBuilder } from 'kysely';
import { AttachmentType, CONTRACT_PAGES, ContractType, REQUIRED_PAGES, canAccessAny } from '@zhyy/shared';
import type { Database } from '../../../db/schema.js';
import type { Access } from '../../../platform/access.js';
import { listAttachments } from '../attachment/attachments.js';
import { registerAttachmentOwner } from '../attachment/owners.js';
import { access } from '../paths.js';
import '../tables.js';

type Db = Kysely<Database>;
export const CONTRACT_OWNER = 'contract';

/** The attachment types each contract has (ids without pages are absent). */
export async function presentPagesOf(db: Db, ids: readonly string[]): Promise<Map<string, number[]>> {
  const out = new Map<string, number[]>();
  for (const a of await listAttachments(db, CONTRACT_OWNER, ids)) {
    const have = out.get(a.ownerId) ?? [];
    if (!have.includes(a.kind)) have.push(a.kind);
    out.set(a.ownerId, have);
  }
  return out;
}

/**
 * How many required pages contract `c` lacks, as SQL over the stored pages: its type's required count
 * less the distinct required kinds it has.
 */
export function missingPagesSql(alias = 'c'): RawBuilder<number> {
  const branches = Object.entries(REQUIRED_PAGES).map(
    ([type, kinds]) =>
      sql`when ${sql.lit(Number(type))} then ${sql.lit(kinds.length)} - (select count(distinct a.kind) from tender_attachments a where a.owner_kind = ${sql.lit(CONTRACT_OWNER)} and a.owner_id = ${sql.ref(`${alias}.id`)} and a.kind in (${sql.join(kinds.map((k) => sql.lit(k)))}))`,
  );
  return sql<number>`(case ${sql.ref(`${alias}.contract_type`)} ${sql.join(branches, sql` `)} else 0 end)`;
}

const allows = (req: FastifyRequest, a: Access) => !!req.user && a.kind === 'pages' && canAccessAny(req.user.roles, a.requirements);

let registered = false;
/** Registers the owner 'contract' with the attachment layer (once). */
export function registerContractOwner(): void {
  if (registered) return;
  registered = true;
  registerAttachmentOwner(CONTRACT_OWNER, {
    canRead: (req) => allows(req, access.contractRead.access) || allows(req, access.contractEdit.access) || allows(req, access.files.access),
    canWrite: (req) => allows(req, access.contractEdit.access),
    describe: async (db, ownerId) => {
      const c = await db.selectFrom('contracts').select(['code', 'name', 'contract_type']).where('id', '=', ownerId).executeTakeFirst();
      return c ? `合同 ${c.code} ${c.name}` : null;
    },
    kinds: [...new Set(Object.values(CONTRACT_PAGES).flat())],
    history: (id) => ({ kind: 'contract', id }),
    refuseKind: async (db, ownerId, kind) => {
      const c = await db.selectFrom('contracts').select('contract_type').where('id', '=', ownerId).executeTakeFirst();
      if (!c || (CONTRACT_PAGES[c.contract_type] ?? []).includes(kind as never)) return null;
      return `${AttachmentType.label(kind)}不是${ContractType.label(c.contract_type)}的附件页`;
    },
  });
}

