/**
 * Invoice settings: the seller, the default clerk / payee / checker, the tax gateway (simulator or
 * Nuonuo; the appSecret never leaves the server) and the tax classification codes. The gateway is
 * built per use from these settings, so switching modes takes effect at once.
 */
import crypto from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { InvoiceKind, OperationLogType, type InvoiceSettingView, type SettingSaveBody, type TaxCodeRow } from '@zhyy/shared';
import type { Database } from '../../../db/schema.js';
import { createTaxGateway, type SimulatorOptions, type TaxGateway } from '../../../integrations/tax/index.js';
import { refuse } from '../../../platform/envelope.js';
import { nowIso } from '../../../platform/time.js';
import type { InvoiceSettingTable } from '../tables.js';

export const SETTINGS_ID = 'default';

/** What a company starts with before anyone opens the settings. */
export function defaultSettings(): InvoiceSettingTable {
  return {
    id: SETTINGS_ID,
    seller_name: '本公司',
    seller_tax_no: '91110000600037341L',
    seller_address: '',
    seller_phone: '',
    seller_bank: '',
    seller_account: '',
    clerk: '开票员',
    payee: '',
    checker: '',
    default_kind: InvoiceKind.bs,
    gateway_mode: 'simulator',
    app_key: '',
    app_secret: '',
    gateway_tax_no: '',
    nuonuo_url: '',
    simulator_delay_ms: 3000,
    simulator_failure_rate: '0',
    file_key: crypto.randomBytes(32).toString('hex'),
    red_refreshed_at: null,
    updated_by: '',
    updated_at: null,
  };
}

export class InvoiceSettings {
  /** `simulator`: options the simulator gets besides the stored ones (the demo seed's scripted failures). */
  constructor(
    private readonly app: FastifyInstance,
    private readonly simulator: Pick<SimulatorOptions, 'failOrders'> = {},
  ) {}

  /** The stored row, created with the defaults on first use (concurrent first uses agree on one row). */
  async row(db: Kysely<Database> = this.app.db.kysely): Promise<InvoiceSettingTable> {
    const found = await db.selectFrom('invoice_settings').selectAll().where('id', '=', SETTINGS_ID).executeTakeFirst();
    if (found) return found;
    await db.insertInto('invoice_settings').values(defaultSettings()).onConflict((oc) => oc.column('id').doNothing()).execute();
    return db.selectFrom('invoice_settings').selectAll().where('id', '=', SETTINGS_ID).executeTakeFirstOrThrow();
  }

  async taxCodes(db: Kysely<Database> = this.app.db.kysely): Promise<TaxCodeRow[]> {
    const rows = await db.selectFrom('invoice_tax_codes').selectAll().orderBy('sort').orderBy('code').execute();
    return rows.map((r) => ({ code: r.code, name: r.name, shortName: r.short_name, taxRate: r.tax_rate, policy: r.policy }));
  }

  async view(): Promise<InvoiceSettingView> {
    const s = await this.row();
    return {
      sellerName: s.seller_name,
      sellerTaxNo: s.seller_tax_no,
      sellerAddress: s.seller_address,
      sellerPhone: s.seller_phone,
      sellerBank: s.seller_bank,
      sellerAccount: s.seller_account,
      clerk: s.clerk,
      payee: s.payee,
      checker: s.checker,
      defaultKind: s.default_kind,
      gatewayMode: s.gateway_mode === 'nuonuo' ? 'nuonuo' : 'simulator',
      appKey: s.app_key,
      appSecretSet: s.app_secret !== '',
      gatewayTaxNo: s.gateway_tax_no,
      nuonuoUrl: s.nuonuo_url,
      simulatorDelayMs: s.simulator_delay_ms,
      simulatorFailureRate: Number(s.simulator_failure_rate),
      taxCodes: await this.taxCodes(),
      updatedAt: s.updated_at,
      updatedBy: s.updated_by,
    };
  }

  async save(req: FastifyRequest, body: SettingSaveBody): Promise<void> {
    const user = req.user!;
    await this.app.db.kysely.transaction().execute(async (trx) => {
      const current = await this.row(trx);
      const secret = body.appSecret || current.app_secret;
      if (body.gatewayMode === 'nuonuo' && (!body.appKey || !secret || !body.gatewayTaxNo)) {
        throw refuse('诺税通模式须填写 appKey、appSecret 和税号');
      }
      const codes = new Set<string>();
      for (const c of body.taxCodes) {
        if (codes.has(c.code)) throw refuse(`税收分类编码 ${c.code} 重复`);
        codes.add(c.code);
      }
      await trx
        .updateTable('invoice_settings')
        .set({
          seller_name: body.sellerName,
          seller_tax_no: body.sellerTaxNo,
          seller_address: body.sellerAddress,
          seller_phone: body.sellerPhone,
          seller_bank: body.sellerBank,
          seller_account: body.sellerAccount,
          clerk: body.clerk,
          payee: body.payee,
          checker: body.checker,
          default_kind: body.defaultKind,
          gateway_mode: body.gatewayMode,
          app_key: body.appKey,
          app_secret: secret,
          gateway_tax_no: body.gatewayTaxNo,
          nuonuo_url: body.nuonuoUrl,
          simulator_delay_ms: body.simulatorDelayMs,
          simulator_failure_rate: String(body.simulatorFailureRate),
          updated_by: user.name,
          updated_at: nowIso(),
        })
        .where('id', '=', SETTINGS_ID)
        .execute();
      await trx.deleteFrom('invoice_tax_codes').execute();
      if (body.taxCodes.length) {
        await trx
          .insertInto('invoice_tax_codes')
          .values(body.taxCodes.map((c, i) => ({ code: c.code, name: c.name, short_name: c.shortName, tax_rate: c.taxRate, policy: c.policy, sort: i })))
          .execute();
      }
      const mode = body.gatewayMode === 'nuonuo' ? '诺税通' : `模拟器（延迟${body.simulatorDelayMs}毫秒，失败率${body.simulatorFailureRate}）`;
      await this.app.oplog.record(req, OperationLogType.edit, `修改开票设置：销方 ${body.sellerName}，接口 ${mode}，税收分类编码 ${body.taxCodes.length} 条`, trx);
    });
  }

  /** The tax gateway as the settings say now. */
  async gateway(): Promise<TaxGateway> {
    const s = await this.row();
    const deps = { db: this.app.db, synclog: this.app.synclog };
    if (s.gateway_mode === 'nuonuo') {
      return createTaxGateway(deps, {
        mode: 'nuonuo',
        nuonuo: { appKey: s.app_key, appSecret: s.app_secret, taxNumber: s.gateway_tax_no || s.seller_tax_no, ...(s.nuonuo_url ? { endpoint: s.nuonuo_url } : {}) },
      });
    }
    return createTaxGateway(deps, {
      mode: 'simulator',
      simulator: { ...this.simulator, delayMs: s.simulator_delay_ms, failureRate: Number(s.simulator_failure_rate), company: { name: s.seller_name, taxNumber: s.seller_tax_no } },
    });
  }
}
