/**
 * The inputs of `generate_image` and `edit_image` (and `#generateImage` / `#editImage`), checked
 * with zod before anything else (the JSON Schemas a model sees are ./toolSchemas).
 */
import * as z from '../../../shared/zod';

export const generateImageInputSchema = z.object({
  prompt: z.string(),
  model: z.optional(z.string()),
  size: z.optional(z.string()),
  quality: z.optional(z.string()),
  n: z.optional(z.number()),
  background: z.optional(z.string()),
  outputFormat: z.optional(z.string()),
});

export const editImageInputSchema = z.object({
  image: z.string(),
  prompt: z.string(),
  mask: z.optional(z.string()),
  model: z.optional(z.string()),
  size: z.optional(z.string()),
  quality: z.optional(z.string()),
  n: z.optional(z.number()),
});

/** One problem with an input, for the model: the rule it broke and the field. */
export interface ImageToolIssue {
  rule: string;
  field: string;
  message: string;
}

/** Parses a tool input; a shape error becomes issues (`input-<field>`) like every other refusal. */
export function parseImageInput<T>(
  schema: z.ZodMiniType<T>,
  input: unknown,
): { ok: true; value: T } | { ok: false; issues: ImageToolIssue[] } {
  const r = schema.safeParse(input);
  if (r.success) return { ok: true, value: r.data };
  return {
    ok: false,
    issues: r.error.issues.map((i) => {
      const field = i.path.join('.') || 'input';
      const rule = `input-${String(i.path[0] ?? 'shape')}`;
      const why =
        i.code === 'invalid_type' ? `expected ${(i as { expected?: string }).expected ?? 'another type'}` : i.code;
      return { rule, field, message: `${field}: ${why} (rule: ${rule})` };
    }),
  };
}
