/**
 * Ticking (勾选) and undoing, as all-or-nothing batches:
 *
 * 1. the period is asked of the tax service (fresh: the deadline and the statistics state decide);
 *    past the deadline or once the period is confirmed the whole request is refused with the reason;
 * 2. every invoice is checked on our side (rules.ts); one refusal and nothing goes further — the answer
 *    names each refusal, and the attempt is written to the tick log as failed;
 * 3. a batch holding 疑点 or abnormal invoices is answered needConfirm (您勾选的发票中含有疑点发票) until it
 *    comes back with confirmed: true (nothing attempted, nothing logged);
 * 4. the tax service is asked (one logged exchange per call: the integrated sync log) in calls of at most
 *    TICK_CALL_SIZE invoices, grouped by usage (and 不抵扣 reason);
 * 5. if the service refuses any invoice (or a call fails), the service is put back as our records say
 *    (takeBackTicks: undo what was not ticked, tick again as it was what was — a changed effective tax or
 *    reason —, leave what a concurrent batch recorded meanwhile; for an undo, tick again what our records
 *    still hold as ticked: the compensating calls, also logged), nothing is recorded, and the answer
 *    lists each refusal; every invoice of the batch is logged as failed with its reason;
 * 6. else one transaction records every invoice with a guarded update (still free or ticked for this
 *    usage, as read) and the tick log rows (success); a concurrent change makes it roll back and the
 *    service's ticks are taken back as in 5.
  *
 * The class is the module's face (routes.ts); each capability is a file of its own: period.ts (the period,
 * step 1), batch.ts (a batch's invoices), tick.ts and untick.ts (the batches, steps 2 to 6), call.ts (the
 * tax-service calls and putting the service back), log.ts (the tick log), import.ts and sheet.ts (导入勾选).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { TickUsage, type TickAnswer, type TickBody, type TickImportAnswer, type TickImportBody, type TickPeriodInfo, type UntickBody } from '@zhyy/shared';
import type { NonDeductReason as Reason, TaxGateway, TickPeriod, TickUsage as Usage } from '../../../integrations/tax/index.js';
import { refuse } from '../../../platform/envelope.js';
import type { InvoiceSettings } from '../../invoice/settings/service.js';
import { idsOfFilter, type Db, type TickDeps } from './batch.js';
import { importTicks } from './import.js';
import { ListWindow, openPeriod, periodInfo } from './period.js';
import { SCOPE_PAGE, SCOPE_USAGES, type TickScope } from './rules.js';
import { tickItems } from './tick.js';
import { untickIds } from './untick.js';
import './tables.js';

export { TICK_CALL_SIZE } from './call.js';
export { readTickSheet, type SheetRow } from './sheet.js';

export class Ticking {
  constructor(
    private readonly app: FastifyInstance,
    private readonly settings: InvoiceSettings,
  ) {}

  private get db(): Db {
    return this.app.db.kysely;
  }

  private get deps(): TickDeps {
    return { app: this.app, db: this.db, gateway: () => this.gateway(), bookedOnly: () => this.bookedOnly() };
  }

  async gateway(): Promise<TaxGateway> {
    return this.settings.gateway();
  }

  async bookedOnly(): Promise<boolean> {
    return Number((await this.settings.row()).tick_booked_only ?? 0) === 1;
  }

  async periodInfo(req: FastifyRequest, scope: TickScope): Promise<TickPeriodInfo> {
    return periodInfo(this.db, await this.gateway(), req, scope, () => this.bookedOnly());
  }

  /** The period for a list (the window); a list does not need it fresh to the second, so it is kept a minute. */
  private readonly listWindow = new ListWindow();
  async windowForList(req: FastifyRequest): Promise<TickPeriod> {
    return this.listWindow.get(req, () => this.gateway());
  }

  async tick(req: FastifyRequest, scope: TickScope, b: TickBody): Promise<TickAnswer> {
    const usage = Number(b.vatUsage) as Usage;
    if (!SCOPE_USAGES[scope].includes(usage)) throw refuse(`${SCOPE_PAGE[scope]}不能勾选为${TickUsage.label(usage)}`);
    const gw = await this.gateway();
    const p = await openPeriod(req, gw, scope);
    const wanted = b.items ?? (await idsOfFilter(this.db, b.filter!, scope, p, 0)).map((id) => ({ id, effectiveTax: undefined }));
    return tickItems(this.deps, req, scope, gw, p, usage, b.deductReason === undefined ? null : (Number(b.deductReason) as Reason), wanted, b.confirmed);
  }

  async untick(req: FastifyRequest, scope: TickScope, b: UntickBody): Promise<TickAnswer> {
    const gw = await this.gateway();
    const p = await openPeriod(req, gw, scope);
    const ids = b.ids ?? (await idsOfFilter(this.db, b.filter!, scope, p, 1));
    return untickIds(this.deps, req, scope, gw, p, ids);
  }

  async importTicks(req: FastifyRequest, scope: TickScope, b: TickImportBody): Promise<TickImportAnswer> {
    return importTicks(this.deps, req, scope, b);
  }
}
