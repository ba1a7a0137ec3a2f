/**
 * Form values of a flow template, validated against the template's field definitions. One zod schema
 * per definition, with Chinese messages; the server refuses a start or send whose values break it,
 * the web form shows the same messages beside each field.
 */
import { z } from './zod-locale.js';
import type { ColumnDef, FieldDef } from './workflow.js';
import { isCalendarDay, text } from './api/common.js';
import { workdaysDerivation } from './work-calendar.js';

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const MAX_TABLE_ROWS = 200;
const MAX_ATTACHMENTS = 20;
/** Money is integer 分; the largest amount a form takes (one hundred million 元). */
const MAX_FEN = 100_000_000_00;

const idName = (what: string) =>
  z.object({ id: text().min(1, `请选择${what}`).max(64), name: text().max(100) }, { error: `请选择${what}` });

function scalarSchema(f: ColumnDef | FieldDef, label: string): z.ZodType {
  switch (f.type) {
    case 'text':
    case 'textarea': {
      const max = f.maxLength ?? (f.type === 'text' ? 100 : 2000);
      const base = text({ error: `${label}应为文本` }).trim().max(max, `${label}不能超过${max}个字`);
      return f.required ? base.min(1, `请填写${label}`) : base;
    }
    case 'number':
    case 'money': {
      const money = f.type === 'money';
      let n = z.number({ error: `${label}应为数字` });
      n = money ? n.int(`${label}金额格式不正确`) : n;
      n = n.min(f.min ?? (money ? 0 : -1e12), `${label}不能小于${money ? (f.min ?? 0) / 100 : (f.min ?? -1e12)}`);
      n = n.max(f.max ?? (money ? MAX_FEN : 1e12), `${label}超出允许范围`);
      return n;
    }
    case 'date':
      return text({ error: `请选择${label}` })
        .regex(DATE, `${label}日期格式不正确`)
        .refine(isCalendarDay, `${label}日期无效`);
    case 'select': {
      const options = f.options ?? [];
      return text({ error: `请选择${label}` }).refine((v) => options.includes(v), `${label}的选项无效`);
    }
    default:
      return z.never();
  }
}

function optionalise(schema: z.ZodType, required: boolean | undefined, label: string, verb = '请填写'): z.ZodType {
  if (required) {
    return z.any().superRefine((v, ctx) => {
      if (v === undefined || v === null || v === '') ctx.addIssue({ code: 'custom', message: `${verb}${label}` });
    }).pipe(schema);
  }
  return z.preprocess((v) => (v === '' || v === null ? undefined : v), schema.optional());
}

function fieldSchema(f: FieldDef): z.ZodType {
  const label = f.label;
  switch (f.type) {
    case 'text':
    case 'textarea':
      // A missing required text reads as empty, so its message is 请填写… rather than a type error.
      return f.required ? z.preprocess((v) => v ?? '', scalarSchema(f, label)) : z.preprocess((v) => (v === null ? undefined : v), scalarSchema(f, label).optional());
    case 'number':
    case 'money':
      return optionalise(scalarSchema(f, label), f.required, label);
    case 'date':
    case 'select':
      return optionalise(scalarSchema(f, label), f.required, label, '请选择');
    case 'dateRange': {
      const range = z
        .tuple([text().regex(DATE, `${label}开始日期格式不正确`).refine(isCalendarDay, `${label}开始日期无效`), text().regex(DATE, `${label}结束日期格式不正确`).refine(isCalendarDay, `${label}结束日期无效`)], {
          error: `请选择${label}`,
        })
        .refine(([a, b]) => a <= b, `${label}的结束日期不能早于开始日期`);
      return optionalise(range, f.required, label, '请选择');
    }
    case 'user':
    case 'dept':
      return optionalise(idName(label), f.required, label, '请选择');
    case 'attachments': {
      const list = z
        .array(z.object({ id: text().min(1).max(64), name: text().max(200), size: z.number().int().min(0) }))
        .max(MAX_ATTACHMENTS, `${label}最多${MAX_ATTACHMENTS}个`);
      return f.required ? z.preprocess((v) => v ?? [], list.min(1, `请上传${label}`)) : list.optional();
    }
    case 'table': {
      const row = z.object(Object.fromEntries((f.columns ?? []).map((c) => [c.key, fieldSchema({ ...c, label: `${label}的${c.label}` })])));
      const rows = z.array(row, { error: `${label}格式不正确` }).max(MAX_TABLE_ROWS, `${label}最多${MAX_TABLE_ROWS}行`);
      return f.required ? z.preprocess((v) => v ?? [], rows.min(1, `请至少填写一行${label}`)) : rows.optional();
    }
  }
}

const isEmpty = (v: unknown) => v === undefined || v === null || v === '';

/**
 * Derived values filled in from what they derive from, when missing: a detail table's sum into its
 * total, a date range's working days into its day count. A value given is kept (and checked by
 * derivedProblems), so a contradiction is refused rather than silently replaced.
 */
export function deriveFormValues(fields: readonly FieldDef[], values: unknown): unknown {
  if (!values || typeof values !== 'object' || Array.isArray(values)) return values;
  const out: Record<string, unknown> = { ...(values as Record<string, unknown>) };
  for (const f of fields) {
    if (f.type === 'table' && f.sumColumn && f.sumInto && Array.isArray(out[f.key]) && (out[f.key] as unknown[]).length && isEmpty(out[f.sumInto])) {
      out[f.sumInto] = (out[f.key] as Array<Record<string, unknown>>).reduce((s: number, r) => s + (Number(r?.[f.sumColumn!]) || 0), 0);
    }
    if (f.workdaysOf && isEmpty(out[f.key])) {
      const d = workdaysDerivation(out[f.workdaysOf], false);
      if (d && d.workdays > 0) out[f.key] = d.workdays;
    }
  }
  return out;
}

/** Contradictions between derived values and what they derive from: field key -> message. */
export function derivedProblems(fields: readonly FieldDef[], values: Record<string, unknown>): Record<string, string> {
  const problems: Record<string, string> = {};
  for (const f of fields) {
    if (!f.workdaysOf) continue;
    const range = fields.find((r) => r.key === f.workdaysOf);
    const d = workdaysDerivation(values[f.workdaysOf], !!f.halfDays);
    if (!range || !d) continue;
    const [from, to] = values[f.workdaysOf] as [string, string];
    if (d.workdays === 0) {
      problems[range.key] = `${range.label}${from}至${to}内没有工作日（周末不计）`;
      continue;
    }
    const v = values[f.key];
    if (typeof v === 'number' && !d.allowed.includes(v)) {
      problems[f.key] = `${f.label}与${range.label}不符：${from}至${to}共${d.workdays}个工作日（周末不计），${f.label}应为${d.allowed.join('或')}天`;
    }
  }
  return problems;
}

/**
 * The values a flow's conditions read: derived values filled in, and a derived value that contradicts
 * what it derives from replaced by the derived one (a preview of unchecked values routes by the dates,
 * never by a typed number).
 */
export function routingValues(fields: readonly FieldDef[], values: Record<string, unknown>): Record<string, unknown> {
  const out = deriveFormValues(fields, values) as Record<string, unknown>;
  for (const f of fields) {
    if (!f.workdaysOf) continue;
    const d = workdaysDerivation(out[f.workdaysOf], !!f.halfDays);
    if (d && !d.allowed.includes(out[f.key] as number)) out[f.key] = d.workdays;
  }
  return out;
}

/** The schema of a template's form values: unknown keys are dropped, every field checked. */
export function formValuesSchema(fields: readonly FieldDef[]) {
  let schema = z.object(Object.fromEntries(fields.map((f) => [f.key, fieldSchema(f)])));
  if (fields.some((f) => f.workdaysOf)) {
    schema = schema.superRefine((v, ctx) => {
      for (const [key, message] of Object.entries(derivedProblems(fields, v as Record<string, unknown>))) ctx.addIssue({ code: 'custom', message, path: [key] });
    }) as unknown as typeof schema;
  }
  for (const f of fields) {
    if (f.type !== 'table' || !f.sumColumn || !f.sumInto) continue;
    const { key, sumColumn, sumInto, label } = f;
    schema = schema.refine(
      (v) => {
        const rows = (v as Record<string, unknown>)[key];
        if (!Array.isArray(rows) || rows.length === 0) return true;
        const sum = rows.reduce((s: number, r) => s + (Number((r as Record<string, unknown>)[sumColumn]) || 0), 0);
        return sum === (v as Record<string, unknown>)[sumInto];
      },
      { message: `${label}合计与总金额不一致`, path: [sumInto] },
    ) as unknown as typeof schema;
  }
  return schema;
}

function relaxed(f: FieldDef): FieldDef {
  return { ...f, required: false, sumColumn: undefined, sumInto: undefined, workdaysOf: undefined, columns: f.columns?.map((c) => ({ ...c, required: false })) };
}

export interface FormCheck {
  ok: boolean;
  values: Record<string, unknown>;
  /** Field path (a.b.0.c) -> first message. */
  errors: Record<string, string>;
  /** The first message, for a refusal. */
  first?: string;
}

/** Validates form values; `values` are the normalised ones when ok. */
export function checkFormValues(fields: readonly FieldDef[], values: unknown, opts: { draft?: boolean } = {}): FormCheck {
  // A draft may be incomplete: nothing is required, but what is filled in must be well-formed.
  const defs = opts.draft ? fields.map(relaxed) : fields;
  const res = formValuesSchema(defs).safeParse(deriveFormValues(fields, values ?? {}));
  if (res.success) return { ok: true, values: res.data as Record<string, unknown>, errors: {} };
  const errors: Record<string, string> = {};
  for (const issue of res.error.issues) {
    const key = issue.path.map(String).join('.');
    errors[key] ??= issue.message;
  }
  return { ok: false, values: {}, errors, first: res.error.issues[0]?.message };
}
