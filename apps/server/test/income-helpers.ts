/** Shared pieces of the income pool tests: a valid manual-entry body and a day relative to today. */
import { randomUUID } from 'node:crypto';
import { CollectTaskState, creditCodeCheckChar } from '@zhyy/shared';
import { COMPANY_NAME } from '../src/seed/company.js';
import { SELLER } from '../src/seed/invoiceData.js';
import { startTestServer, type TestServer } from './helpers.js';

export const creditCode = (first17: string) => `${first17}${creditCodeCheckChar(first17)}`;
export const SUPPLIER = { name: '测试分包有限公司', taxNo: creditCode('91320106MA1TE8TAB') };
export const OUR = { name: COMPANY_NAME, taxNo: SELLER.taxNo };

/** The Asia/Shanghai day `offset` days from today. */
export const shanghaiDay = (offset = 0) => new Date(Date.now() + 8 * 3600_000 + offset * 86_400_000).toISOString().slice(0, 10);

let serial = 0;
/** A fresh 20-digit 数电 number no seeded invoice has (they start with the year). */
export const nextDigital = () => `99${String(Date.now() % 1e6).padStart(6, '0')}${String(++serial).padStart(12, '0')}`;

export const b64 = (b: Buffer) => b.toString('base64');
export const pdf = (text: string) => Buffer.from(`%PDF-1.4\n% ${text}\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n`);

/** A valid 数电专票 for the company: 100.00 + 9.00 = 109.00. */
export function entry(over: Record<string, unknown> = {}) {
  return {
    kind: '81',
    digitalNo: nextDigital(),
    issueDate: shanghaiDay(-10),
    sellerName: SUPPLIER.name,
    sellerTaxNo: SUPPLIER.taxNo,
    buyerName: OUR.name,
    buyerTaxNo: OUR.taxNo,
    amountExcl: 10000,
    tax: 900,
    amountIncl: 10900,
    lines: [{ name: '*建筑服务*劳务分包', spec: '', unit: '项', quantity: '1', unitPrice: '100.00', amount: 10000, taxRate: '0.09', tax: 900 }],
    ...over,
  };
}

/** 采集 through the route (a background task), then waits until the task has finished; throws if it did not succeed. */
export async function collectAndWait(s: TestServer, body: { from: string; to: string }, token: string): Promise<{ message: string; created: number }> {
  const start = await s.call('/api/income/pool/collect', body, token);
  if (start.code !== 20000) throw new Error(start.message);
  for (let i = 0; i < 2400; i++) {
    const p = await s.call('/api/income/pool/collect-progress', { taskId: start.r.taskId }, token);
    if (p.code !== 20000) throw new Error(p.message);
    if (p.r.finished) {
      if (p.r.state !== CollectTaskState.done) throw new Error(p.r.message);
      return p.r;
    }
    await new Promise((res) => setTimeout(res, 50));
  }
  throw new Error('collection task did not finish');
}

/**
 * Documents of the demo company a signing may name (issue 27: a 报销单 submitted, a real 合同 and 项目),
 * and ones it may not (a draft 报销单, a temporary 项目).
 */
export async function signDocs(s: TestServer): Promise<{ reimbursement: string; contract: string; project: string; draftBill: string; tempProject: string }> {
  const k = s.db.kysely;
  const bill = await k.selectFrom('reimb_bills').select('bill_no').where('flow_state', 'in', [1, 3]).orderBy('bill_no').executeTakeFirstOrThrow();
  const draft = await k.selectFrom('reimb_bills').select('bill_no').where('flow_state', '=', 0).orderBy('bill_no').executeTakeFirstOrThrow();
  const contract = await k.selectFrom('contracts').select('code').where('is_temp', '=', 0).orderBy('code').executeTakeFirstOrThrow();
  const project = await k.selectFrom('projects').select('code').where('is_temp', '=', 0).orderBy('code').executeTakeFirstOrThrow();
  const temp = await k.selectFrom('projects').select('code').where('is_temp', '=', 1).orderBy('code').executeTakeFirstOrThrow();
  return { reimbursement: bill.bill_no, contract: contract.code, project: project.code, draftBill: draft.bill_no, tempProject: temp.code };
}

/**
 * For tests that need many distinct documents to sign against (each signing told apart by its number):
 * registers copies of a submitted demo 报销单, a real demo 合同 and 项目 under the given numbers.
 */
export async function registerSignDocs(s: TestServer, docs: { reimbursement?: string[]; contract?: string[]; project?: string[] }): Promise<void> {
  const k = s.db.kysely;
  const bill = await k.selectFrom('reimb_bills').selectAll().where('flow_state', 'in', [1, 3]).orderBy('bill_no').executeTakeFirstOrThrow();
  for (const no of docs.reimbursement ?? []) await k.insertInto('reimb_bills').values({ ...bill, id: randomUUID(), bill_no: no, work_id: null }).execute();
  const contract = await k.selectFrom('contracts').selectAll().where('is_temp', '=', 0).orderBy('code').executeTakeFirstOrThrow();
  for (const code of docs.contract ?? []) await k.insertInto('contracts').values({ ...contract, id: randomUUID(), code }).execute();
  const project = await k.selectFrom('projects').selectAll().where('is_temp', '=', 0).orderBy('code').executeTakeFirstOrThrow();
  for (const code of docs.project ?? []) await k.insertInto('projects').values({ ...project, id: randomUUID(), code }).execute();
}

/** A server of the test demo with its income job stopped (a test drives the collection), and demo13's token (role 13, 进项管理). */
export async function startIncomeServer(): Promise<{ s: TestServer; t13: string }> {
  const s = await startTestServer();
  await s.app.incomeJob.stop();
  return { s, t13: await s.login('demo13') };
}
