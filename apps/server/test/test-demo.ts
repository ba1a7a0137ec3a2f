/**
 * The demo volume of test servers. Test servers seed the whole demo company with its incoming-invoice
 * pool drawn at 3 a day (1,080 invoices over the same twelve months) instead of 60 (21,600): the full
 * pool costs seconds per file on PostgreSQL; income-demo.test.ts seeds it at full volume once on each
 * database. Reimbursement bills likewise: 10 a month instead of 700 (reimbursement-demo.test.ts checks
 * a larger volume), and cost orders 12 a month instead of 180 (cost-demo.test.ts checks a larger volume).
 * global-setup.ts seeds this volume once per run and engine; helpers.ts hands each file a copy.
 */
export const TEST_DEMO = { incomePerDay: 3, reimbPerMonth: 10, costPerMonth: 12, tenderFrames: 3, tenderPeople: 0, tenderExports: 0, tenderScans: false } as const;
