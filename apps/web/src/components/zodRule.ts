/**
 * An antd form rule from a zod schema: the same rule and Chinese message as the server's (usually the
 * server's own field schema, BuyerSaveBody.shape.phone). A rule without a message of ours speaks in
 * the shared error map's words, naming the field by `label` (电话格式不正确).
 *
 * An empty field is left to the item's `required` rule (请输入姓名), so an empty form shows one
 * message per field, never a second one about types: whether a value is needed is that rule's job.
 */
import type { FormRule } from 'antd';
import type { ZodType } from 'zod';
import { issueMessage } from '@zhyy/shared';

type ZodIssue = Parameters<typeof issueMessage>[0];

export function zodRule(schema: ZodType, label?: string): FormRule {
  return {
    validator: async (_rule, value: unknown) => {
      if (value === undefined || value === null || value === '') return;
      const r = schema.safeParse(value ?? undefined, { error: (iss: ZodIssue) => issueMessage(iss, label) });
      if (!r.success) throw new Error(r.error.issues[0]?.message ?? (label ? `${label}不正确` : '输入不正确'));
    },
  };
}
