// antd Form rules from the shared zod schemas, so the console checks a field exactly as the server
// will, with the same (translated) sentence.
import type { FormRule } from 'antd';
import type { z } from 'zod';
import { translateServerMessage } from './api';

export function zodRule(schema: z.ZodType): FormRule {
  return {
    validator: async (_rule, value: unknown) => {
      const result = schema.safeParse(value ?? '');
      if (result.success) return;
      const issue = result.error.issues[0];
      throw new Error(translateServerMessage(issue?.message ?? ''));
    },
  };
}

/** The first failing field's message of a whole-form schema, translated; null when the input is fine. */
export function firstIssue(schema: z.ZodType, value: unknown): string | null {
  const result = schema.safeParse(value);
  if (result.success) return null;
  return translateServerMessage(result.error.issues[0]?.message ?? '');
}
