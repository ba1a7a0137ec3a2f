/** The roles that change signing data (sign, revoke, allocate); role 16 reads only (shared, so the pages hide their buttons by the same list). */
export { INCOME_ENTRY_WRITE_ROLES } from '@zhyy/shared';
