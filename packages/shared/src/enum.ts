/**
 * A small typed enumeration: code <-> key <-> Chinese label, defined once.
 *
 *   const Colour = defineEnum({ blue: [1, '蓝字'], red: [2, '红字'] });
 *   Colour.blue            // 1
 *   Colour.label(2)        // '红字'
 *   Colour.options         // [{ key: 'blue', value: 1, label: '蓝字' }, ...]
 */
export type EnumSpec = Record<string, readonly [number | string, string]>;

export interface EnumOption<V> {
  key: string;
  value: V;
  label: string;
}

export type DefinedEnum<S extends EnumSpec> = { readonly [K in keyof S]: S[K][0] } & {
  readonly options: ReadonlyArray<EnumOption<S[keyof S][0]>>;
  readonly values: ReadonlyArray<S[keyof S][0]>;
  label(value: unknown): string;
  has(value: unknown): value is S[keyof S][0];
};

export function defineEnum<const S extends EnumSpec>(spec: S): DefinedEnum<S> {
  const options = Object.entries(spec).map(([key, [value, label]]) => ({ key, value, label }));
  const byValue = new Map<unknown, string>(options.map((o) => [o.value, o.label]));
  const out: Record<string, unknown> = {};
  for (const o of options) out[o.key] = o.value;
  out.options = Object.freeze(options);
  out.values = Object.freeze(options.map((o) => o.value));
  out.label = (value: unknown) => byValue.get(value) ?? (value == null ? '' : String(value));
  out.has = (value: unknown) => byValue.has(value);
  return Object.freeze(out) as DefinedEnum<S>;
}

/** The union of an enum's codes: `type S = EnumValue<typeof InvoiceStatus>`. */
export type EnumValue<E extends { values: ReadonlyArray<unknown> }> = E['values'][number];
