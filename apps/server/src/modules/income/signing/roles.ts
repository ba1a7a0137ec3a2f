/** The roles that change signing data (sign, revoke, allocate); role 16 reads only. */
export const INCOME_ENTRY_WRITE_ROLES: readonly string[] = ['1', '13', '14'];
