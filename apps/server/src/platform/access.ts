/**
 * Every route declares who may call it (`config.access`). Page-bound rules are derived from the
 * shared route table: a call passes when the caller may open at least one of the pages that use it.
 */
import { requirementForPages, type RoleRequirement } from '@zhyy/shared';

export type Access =
  | { kind: 'public' }
  | { kind: 'signedIn'; allowInitialPassword?: boolean }
  | {
      kind: 'pages';
      /** The caller may open at least one of these pages… */
      pages: string[];
      /** …and every one of these as well (a write action offered on a read-only ledger). */
      alsoPages: string[];
      /** Derived from the two lists above; the guard checks these. */
      requirements: RoleRequirement[];
    };

/** No token needed. */
export const PUBLIC: Access = { kind: 'public' };
/** Any signed-in user whose password is not an initial one. */
export const SIGNED_IN: Access = { kind: 'signedIn' };
/** Any signed-in user, even one who must still change the initial password (userinfo, logout, password update). */
export const SIGNED_IN_INITIAL_OK: Access = { kind: 'signedIn', allowInitialPassword: true };

/** Callers who may open one of these pages (full paths of the shared route table). */
export function pages(...patterns: string[]): Access {
  return pagesAnd(patterns, []);
}

/**
 * Callers who may open one of `patterns` and every page of `also`: e.g. a change on a ledger that
 * role 11 may read but only invoice writers (those who may open invoice-upload) may change.
 */
export function pagesAnd(patterns: string[], also: string[]): Access {
  const extra = requirementForPages(also).flat();
  return { kind: 'pages', pages: patterns, alsoPages: also, requirements: requirementForPages(patterns).map((r) => [...r, ...extra]) };
}

export function describeAccess(a: Access): string {
  if (a.kind === 'public') return 'public';
  if (a.kind === 'signedIn') return a.allowInitialPassword ? 'signed-in (initial password allowed)' : 'signed-in';
  const also = a.alsoPages.length ? ` and also ${a.alsoPages.join(', ')}` : '';
  return `pages: ${a.pages.join(', ')}${also}`;
}
