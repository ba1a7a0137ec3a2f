/**
 * The scans of titles and certificates: attachment owners 'title' and 'certificate' (attachment type
 * 0, 附件) in the tender attachment registry. Written from the people pages (1, 6, 15); read from them
 * and from the tender file pages (1, 6, 9, 23), which bind and preview them.
 */
import type { FastifyRequest } from 'fastify';
import { canAccessAny } from '@zhyy/shared';
import { registerAttachmentOwner } from '../attachment/owners.js';
import { access } from '../paths.js';

const people = access.people;
const files = access.files;
const mayUsePeoplePages = (req: FastifyRequest) => !!req.user && people.access.kind === 'pages' && canAccessAny(req.user.roles, people.access.requirements);
/** The people pages, and the tender file pages (9, 23), which preview the scans they bind. */
const mayRead = (req: FastifyRequest) => mayUsePeoplePages(req) || (!!req.user && files.access.kind === 'pages' && canAccessAny(req.user.roles, files.access.requirements));

export function registerPeopleAttachments(): void {
  registerAttachmentOwner('title', {
    canRead: mayRead,
    canWrite: mayUsePeoplePages,
    kinds: [0],
    describe: async (db, id) => {
      const t = await db.selectFrom('tender_titles as t').innerJoin('users as u', 'u.id', 't.user_id').select(['u.name', 't.title_name', 't.cert_no']).where('t.id', '=', id).executeTakeFirst();
      return t ? `职称 ${t.name} ${t.title_name}（${t.cert_no}）` : null;
    },
  });
  registerAttachmentOwner('certificate', {
    canRead: mayRead,
    canWrite: mayUsePeoplePages,
    kinds: [0],
    describe: async (db, id) => {
      const c = await db
        .selectFrom('tender_certificates as c')
        .innerJoin('users as u', 'u.id', 'c.user_id')
        .innerJoin('tender_cert_kinds as k', 'k.id', 'c.kind_id')
        .select(['u.name', 'k.name as kind', 'c.cert_no'])
        .where('c.id', '=', id)
        .executeTakeFirst();
      return c ? `资格证书 ${c.name} ${c.kind}（${c.cert_no}）` : null;
    },
  });
}
