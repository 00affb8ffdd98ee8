/**
 * The inputs of the two video tools, checked with zod before anything else happens. The JSON
 * Schemas a model sees (package.json `languageModelTools`, the chat's tool definitions) come from
 * {@link GENERATE_VIDEO_JSON_SCHEMA} and {@link VIDEO_STATUS_JSON_SCHEMA}; a unit test keeps
 * package.json equal to them.
 */
import * as z from '../../../shared/zod';
import type { VideoRuleIssue } from '../../../api/video/videoRules';

export const generateVideoInputSchema = z.object({
  prompt: z.string(),
  model: z.optional(z.string()),
  seconds: z.optional(z.number()),
  aspectRatio: z.optional(z.string()),
  resolution: z.optional(z.string()),
  images: z.optional(z.array(z.string())),
});

export const videoStatusInputSchema = z.object({
  id: z.optional(z.string()),
  limit: z.optional(z.number()),
});

export const GENERATE_VIDEO_JSON_SCHEMA = {
  type: 'object',
  properties: {
    prompt: { type: 'string', description: 'What the video shows.' },
    model: {
      type: 'string',
      description:
        "vendor-image-video, vendor-video-1.5, or a model of a catalog family (see the model rules); leave out for the user's default model.",
    },
    seconds: { type: 'integer', minimum: 1, maximum: 15, description: 'Duration in seconds (see the model rules).' },
    aspectRatio: { type: 'string', description: 'Such as 16:9, 9:16 or 1:1 (see the model rules).' },
    resolution: {
      type: 'string',
      description:
        "720p for covers and key visuals, 480p for bulk material; a catalog family's own resolutions (see the model rules).",
    },
    images: {
      type: 'array',
      items: { type: 'string' },
      description: 'Reference images: workspace-relative paths of image files, or public HTTPS URLs.',
    },
  },
  required: ['prompt'],
} as const;

export const VIDEO_STATUS_JSON_SCHEMA = {
  type: 'object',
  properties: {
    id: { type: 'string', description: 'The task id the generate tool returned; leave out for the latest tasks.' },
    limit: {
      type: 'integer',
      minimum: 1,
      maximum: 20,
      description: 'How many of the latest tasks to list (default 5).',
    },
  },
} as const;

/**
 * Parses a tool input; a shape error becomes rule issues (`input-<field>`) in the same form as
 * the request rules, so the model gets one kind of answer for every refusal.
 */
export function parseToolInput<T>(
  schema: z.ZodMiniType<T>,
  input: unknown,
): { ok: true; value: T } | { ok: false; issues: VideoRuleIssue[] } {
  const r = schema.safeParse(input);
  if (r.success) return { ok: true, value: r.data };
  return {
    ok: false,
    issues: r.error.issues.map((i) => {
      const field = i.path.join('.') || 'input';
      return {
        rule: `input-${String(i.path[0] ?? 'shape')}`,
        field,
        message: `${field}: ${i.code === 'invalid_type' ? `expected ${(i as { expected?: string }).expected ?? 'another type'}` : i.code} (rule: input-${String(i.path[0] ?? 'shape')})`,
      };
    }),
  };
}
