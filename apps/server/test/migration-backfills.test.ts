/**
 * The frozen backfill of migration 0029_income_abnormal (db/migrations/0029_income_abnormal.backfill.ts,
 * issue 28: a migration carries the rules of its day instead of importing live module code). Over the
 * test demo's pool it raises one case per flag of every flagged invoice — the flags today's rules see —,
 * flags the documents of the dead ones as it did that day, and raising again adds nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { raiseAll as frozenRaiseAll } from '../src/db/migrations/0029_income_abnormal.backfill.js';
import { raiseAll } from '../src/modules/income/abnormal/raise.js';
import { startTestServer, type TestServer } from './helpers.js';

let s: TestServer;

beforeAll(async () => {
  s = await startTestServer();
});
afterAll(() => s.close());

const cases = async () =>
  (await s.db.kysely.selectFrom('income_abnormal_cases').select(['invoice_id', 'flag']).orderBy('invoice_id').orderBy('flag').execute()).map((c) => `${c.invoice_id}:${c.flag}`);

describe('0029_income_abnormal backfill (frozen)', () => {
  it('raises the same cases as today’s raiseAll, once', async () => {
    await s.db.kysely.deleteFrom('income_transfer_outs').execute();
    await s.db.kysely.deleteFrom('income_abnormal_cases').execute();
    const raised = await frozenRaiseAll(s.db.kysely);
    const frozen = await cases();
    expect(raised).toBe(frozen.length);
    expect(raised).toBeGreaterThan(0);
    expect(await frozenRaiseAll(s.db.kysely)).toBe(0);
    // A dead flag on an invoice a document holds: the document named on the case (that day's wording).
    const flagged = await s.db.kysely.selectFrom('income_abnormal_cases').select('doc_flagged').where('doc_flagged', '<>', '').execute();
    for (const f of flagged) expect(f.doc_flagged).toMatch(/^(报销单|签收单|合同) \S+$/);

    // Today's rules raise what 0029 raised, and since 0046 (issue 32 item 2) also the 疑点发票 (risk 03) cases,
    // a flag 0029 did not know.
    await s.db.kysely.deleteFrom('income_abnormal_cases').execute();
    const today = await raiseAll(s.db.kysely, false);
    const now = await cases();
    const known = now.filter((c) => !c.endsWith(':suspicious'));
    expect(known).toEqual(frozen);
    expect(today).toBe(now.length);
  });
});
