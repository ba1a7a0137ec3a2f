/**
 * 0033_reimbursement: 费用报销 (issue 15). The bill (reimb_bills) and its lines (reimb_lines), its
 * attachments, the accounting pushes and revocations, and the settings (expense categories with their
 * accounting subjects, department → cost centre, travel standards by grade and city tier, city tiers,
 * people's grades and payee details, key/value settings). Money is integer 分; timestamps ISO UTC text.
 *
 * The bill's two states: `flow_state` (the approval: 0 草稿, 1 审批中, 2 已退回, 3 已通过) and, once
 * approved, `reimb_state` (the accounting push: 0 未报销 unReimburse, -1 报销中 applying, 1 已报销,
 * 2 报销失败; null before approval).
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('reimb_bills')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('bill_no', 'text', (c) => c.notNull().unique())
    .addColumn('applicant_id', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('applicant_name', 'text', (c) => c.notNull())
    .addColumn('dept_id', 'text')
    .addColumn('dept_name', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('project_id', 'text')
    .addColumn('project_name', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('contract_no', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('period_from', 'text', (c) => c.notNull())
    .addColumn('period_to', 'text', (c) => c.notNull())
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('payee_name', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('payee_bank', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('payee_account', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('flow_state', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('work_id', 'integer')
    .addColumn('reimb_state', 'integer')
    // Sums of the lines, kept by the service whenever the lines change (never typed): claimed, approved (核定), tax, deductible tax.
    .addColumn('amount', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('approved_amount', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('tax', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('deductible_tax', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('line_count', 'integer', (c) => c.notNull().defaultTo(0))
    // The accounting side: the summary text (摘要) and cost centre may be corrected on /reimbursement/edit/:id.
    .addColumn('acct_summary', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('cost_centre_code', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('cost_centre_name', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('voucher_id', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('voucher_no', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('voucher_period', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('voucher_date', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('push_message', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('push_claimed_until', 'text')
    .addColumn('pushed_at', 'text')
    .addColumn('pushed_by', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('submitted_at', 'text')
    .addColumn('approved_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('reimb_bills_applicant_idx').on('reimb_bills').columns(['applicant_id', 'created_at']).execute();
  await db.schema.createIndex('reimb_bills_state_idx').on('reimb_bills').columns(['reimb_state', 'approved_at']).execute();
  await db.schema.createIndex('reimb_bills_flow_idx').on('reimb_bills').columns(['flow_state', 'created_at']).execute();
  await db.schema.createIndex('reimb_bills_dept_idx').on('reimb_bills').columns(['dept_id', 'voucher_date']).execute();
  await db.schema.createIndex('reimb_bills_pushed_idx').on('reimb_bills').columns(['voucher_date']).execute();

  await db.schema
    .createTable('reimb_lines')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('bill_id', 'text', (c) => c.notNull().references('reimb_bills.id').onDelete('cascade'))
    .addColumn('line_no', 'integer', (c) => c.notNull())
    .addColumn('category_code', 'text', (c) => c.notNull())
    .addColumn('category_name', 'text', (c) => c.notNull())
    .addColumn('expense_date', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    // Travel details the standards are checked against: the city, nights (hotel) and seat class (transport).
    .addColumn('city', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('nights', 'integer')
    .addColumn('seat_class', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('amount', 'bigint', (c) => c.notNull())
    .addColumn('tax_rate', 'text', (c) => c.notNull().defaultTo('0'))
    .addColumn('tax', 'bigint', (c) => c.notNull().defaultTo(0))
    // 核定: null while nobody reduced it (the claim stands); never above amount.
    .addColumn('approved_amount', 'bigint')
    .addColumn('approve_note', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('approved_by', 'text', (c) => c.notNull().defaultTo(''))
    // The passenger ticket's deductible tax by the shared transport formulas (0 otherwise).
    .addColumn('deductible_tax', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('invoice_id', 'text')
    .addColumn('invoice_number', 'text', (c) => c.notNull().defaultTo(''))
    // The accounting subject (from the category; may be corrected on the edit page).
    .addColumn('subject_code', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('subject_name', 'text', (c) => c.notNull().defaultTo(''))
    // The checks' findings at the last save (JSON array of {code, level, message}).
    .addColumn('checks', 'text', (c) => c.notNull().defaultTo('[]'))
    .execute();
  await db.schema.createIndex('reimb_lines_bill_idx').on('reimb_lines').columns(['bill_id', 'line_no']).execute();
  await db.schema.createIndex('reimb_lines_invoice_idx').on('reimb_lines').columns(['invoice_id']).execute();
  await db.schema.createIndex('reimb_lines_claim_idx').on('reimb_lines').columns(['category_code', 'expense_date', 'amount']).execute();

  await db.schema
    .createTable('reimb_attachments')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('bill_id', 'text', (c) => c.notNull().references('reimb_bills.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('size', 'integer', (c) => c.notNull())
    // The content is kept once in invoice_blobs (the platform's content-addressed store), as the pool's files are.
    .addColumn('sha256', 'text', (c) => c.notNull().references('invoice_blobs.sha256'))
    .addColumn('created_by', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('reimb_attachments_bill_idx').on('reimb_attachments').columns(['bill_id']).execute();

  // Every push attempt and every revocation of a bill: the accounting history on the detail page.
  await db.schema
    .createTable('reimb_pushes')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('bill_id', 'text', (c) => c.notNull().references('reimb_bills.id').onDelete('cascade'))
    .addColumn('action', 'text', (c) => c.notNull()) // push | revoke
    .addColumn('ok', 'integer', (c) => c.notNull())
    .addColumn('voucher_no', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('message', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('user_name', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('reimb_pushes_bill_idx').on('reimb_pushes').columns(['bill_id', 'created_at']).execute();

  await db.schema
    .createTable('reimb_revocations')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('bill_id', 'text', (c) => c.notNull().references('reimb_bills.id').onDelete('cascade'))
    .addColumn('bill_no', 'text', (c) => c.notNull())
    .addColumn('voucher_no', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('voucher_period', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('reason', 'text', (c) => c.notNull())
    // 1 已撤销; 2 被拒绝 (the accounting side still holds the voucher, or its period is closed; message says which).
    .addColumn('state', 'integer', (c) => c.notNull())
    .addColumn('message', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('requested_by', 'text')
    .addColumn('requested_by_name', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('reimb_revocations_created_idx').on('reimb_revocations').columns(['created_at']).execute();
  await db.schema.createIndex('reimb_revocations_bill_idx').on('reimb_revocations').columns(['bill_id']).execute();

  // Settings (cost-setting).
  await db.schema
    .createTable('reimb_categories')
    .addColumn('code', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull().unique())
    // hotel | transport | allowance | '' : which travel standard applies.
    .addColumn('travel_kind', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('subject_code', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('subject_name', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('default_tax_rate', 'text', (c) => c.notNull().defaultTo('0'))
    .addColumn('sort', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('reimb_cost_centres')
    .addColumn('dept_id', 'text', (c) => c.primaryKey().references('departments.id').onDelete('cascade'))
    .addColumn('centre_code', 'text', (c) => c.notNull())
    .addColumn('centre_name', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  // Travel standards per grade and city tier: hotel per night (分) and the seat classes allowed (comma-separated).
  await db.schema
    .createTable('reimb_travel_standards')
    .addColumn('grade', 'text', (c) => c.notNull())
    .addColumn('city_tier', 'integer', (c) => c.notNull())
    .addColumn('hotel_per_night', 'bigint', (c) => c.notNull())
    .addColumn('seat_classes', 'text', (c) => c.notNull())
    .addColumn('allowance_per_day', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('reimb_travel_standards_pk', ['grade', 'city_tier'])
    .execute();
  await db.schema
    .createTable('reimb_city_tiers')
    .addColumn('city', 'text', (c) => c.primaryKey())
    .addColumn('tier', 'integer', (c) => c.notNull())
    .execute();
  // Per person: the grade the travel standards use and the default payee details.
  await db.schema
    .createTable('reimb_profiles')
    .addColumn('user_id', 'text', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('grade', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('payee_name', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('payee_bank', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('payee_account', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('reimb_settings')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .execute();
  // Bill numbers BX{yyyyMM}{seq}: one counter per month, taken by an atomic upsert.
  await db.schema
    .createTable('reimb_counters')
    .addColumn('month', 'text', (c) => c.primaryKey())
    .addColumn('seq', 'integer', (c) => c.notNull())
    .execute();
  // 报销台账 (ledger/): its default order and sorts, and the exact filters (bill number and department have theirs above).
  await db.schema.createIndex('reimb_bills_submitted_idx').on('reimb_bills').columns(['submitted_at']).execute();
  await db.schema.createIndex('reimb_bills_approved_idx').on('reimb_bills').columns(['approved_at']).execute();
  await db.schema.createIndex('reimb_bills_amount_idx').on('reimb_bills').columns(['amount']).execute();
  await db.schema.createIndex('reimb_bills_voucher_no_idx').on('reimb_bills').columns(['voucher_no']).execute();
  await db.schema.createIndex('reimb_bills_applicant_name_idx').on('reimb_bills').columns(['applicant_name']).execute();
  // 汇总 and 流水: the pushed bills of a voucher-date range (reimb_bills_state_idx is on approved_at, and scans every pushed bill).
  await db.schema.createIndex('reimb_bills_pushed_month_idx').on('reimb_bills').columns(['reimb_state', 'voucher_date']).execute();

  await insertReferenceData(db, new Date().toISOString());
}

/**
 * Reference data every install has from day one (with or without the demo), edited on
 * /reimbursement/cost-setting: the expense categories with their accounting subjects and default tax
 * rates, the travel standards of each grade and city tier, and the city tiers. Frozen here as the
 * migration's content (later changes are the users' own).
 */
// [code, name, travel kind, subject code, subject name, default tax rate]
const CATEGORIES: Array<[string, string, string, string, string, string]> = [
  ['0101', '差旅-交通', 'transport', '6602.01', '管理费用-差旅费', '0.09'],
  ['0102', '差旅-住宿', 'hotel', '6602.01', '管理费用-差旅费', '0.06'],
  ['0103', '差旅-补助', 'allowance', '6602.01', '管理费用-差旅费', '0'],
  ['0201', '市内交通', '', '6602.02', '管理费用-交通费', '0.03'],
  ['0301', '业务招待', '', '6602.03', '管理费用-业务招待费', '0'],
  ['0401', '办公', '', '6602.04', '管理费用-办公费', '0.13'],
  ['0501', '通讯', '', '6602.05', '管理费用-通讯费', '0.06'],
  ['0601', '会议', '', '6602.06', '管理费用-会议费', '0.06'],
  ['0701', '培训', '', '6602.07', '管理费用-职工教育经费', '0.06'],
  ['0801', '车辆', '', '6602.08', '管理费用-车辆使用费', '0.13'],
  ['0802', '通行费', '', '6602.08', '管理费用-车辆使用费', '0.03'],
  ['0901', '项目现场', '', '5401.02', '合同履约成本-现场经费', '0.09'],
  ['1001', '快递邮寄', '', '6602.09', '管理费用-邮寄费', '0.06'],
  ['1101', '职工福利', '', '6602.10', '管理费用-职工福利费', '0'],
];
// [grade, tier, hotel per night (分), seat classes, allowance per day (分)]
const STANDARDS: Array<[string, number, number, string, number]> = [
  ['staff', 1, 50_000, '二等座,经济舱,硬卧,普通客车', 10_000],
  ['staff', 2, 40_000, '二等座,经济舱,硬卧,普通客车', 8_000],
  ['staff', 3, 30_000, '二等座,经济舱,硬卧,普通客车', 6_000],
  ['manager', 1, 65_000, '一等座,二等座,经济舱,软卧,硬卧,普通客车', 12_000],
  ['manager', 2, 50_000, '一等座,二等座,经济舱,软卧,硬卧,普通客车', 10_000],
  ['manager', 3, 40_000, '一等座,二等座,经济舱,软卧,硬卧,普通客车', 8_000],
  ['leader', 1, 90_000, '商务座,一等座,二等座,公务舱,经济舱,软卧,硬卧,普通客车', 15_000],
  ['leader', 2, 70_000, '商务座,一等座,二等座,公务舱,经济舱,软卧,硬卧,普通客车', 12_000],
  ['leader', 3, 50_000, '商务座,一等座,二等座,公务舱,经济舱,软卧,硬卧,普通客车', 10_000],
];
const TIER1 = ['北京', '上海', '广州', '深圳'];
const TIER2 = [
  '天津', '重庆', '南京', '苏州', '杭州', '宁波', '武汉', '成都', '西安', '长沙', '郑州', '济南', '青岛', '合肥', '福州', '厦门', '南昌',
  '沈阳', '大连', '长春', '哈尔滨', '石家庄', '太原', '呼和浩特', '南宁', '海口', '三亚', '贵阳', '昆明', '拉萨', '兰州', '西宁', '银川', '乌鲁木齐',
  '无锡', '常州', '东莞', '佛山', '珠海',
];

async function insertReferenceData(db: Kysely<any>, now: string): Promise<void> {
  await db
    .insertInto('reimb_categories')
    .values(CATEGORIES.map(([code, name, travel_kind, subject_code, subject_name, default_tax_rate], i) => ({ code, name, travel_kind, subject_code, subject_name, default_tax_rate, sort: (i + 1) * 10, enabled: 1, updated_at: now })))
    .execute();
  await db
    .insertInto('reimb_travel_standards')
    .values(STANDARDS.map(([grade, city_tier, hotel_per_night, seat_classes, allowance_per_day]) => ({ grade, city_tier, hotel_per_night, seat_classes, allowance_per_day, updated_at: now })))
    .execute();
  await db
    .insertInto('reimb_city_tiers')
    .values([...TIER1.map((city) => ({ city, tier: 1 })), ...TIER2.map((city) => ({ city, tier: 2 }))])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const t of ['reimb_counters', 'reimb_settings', 'reimb_profiles', 'reimb_city_tiers', 'reimb_travel_standards', 'reimb_cost_centres', 'reimb_categories', 'reimb_revocations', 'reimb_pushes', 'reimb_attachments', 'reimb_lines', 'reimb_bills'])
    await db.schema.dropTable(t).execute();
}
