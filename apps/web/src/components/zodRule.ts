/** An antd form rule from a zod schema: the same rule and Chinese message as the server's. */
import type { FormRule } from 'antd';
import type { ZodType } from 'zod';

export function zodRule(schema: ZodType): FormRule {
  return {
    validator: async (_rule, value: unknown) => {
      const r = schema.safeParse(value ?? undefined);
      if (!r.success) throw new Error(r.error.issues[0]?.message ?? '输入不正确');
    },
  };
}
