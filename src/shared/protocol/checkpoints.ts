/** Checkpoints: restoring the files an answer changed. */
import * as z from '../zod';
import { id } from './fields';

/** An answer that has a checkpoint: the Restore button under it. */
export const checkpointSummarySchema = z.object({
  answerId: id,
  files: z.number().check(z.int(), z.nonnegative()),
  unrecorded: z.number().check(z.int(), z.nonnegative()),
});
export type CheckpointSummaryView = z.infer<typeof checkpointSummarySchema>;
/** One file of a proposed restore (see `PlannedFile` in chat/checkpoints/core/checkpoints.ts). */
export const checkpointFileSchema = z.object({
  path: z.string(),
  relative: z.string(),
  status: z.enum(['ok', 'changed', 'same', 'unrecorded']),
  action: z.enum(['restore', 'delete', 'recreate', 'none']),
  diff: z.string(),
});
export type CheckpointFileView = z.infer<typeof checkpointFileSchema>;

/** Host -> webview. */
export const checkpointsHostMessages = [
  /** The shown conversation's answers with checkpoints (sent on every change of them). */
  z.object({ type: z.literal('checkpoints/list'), conversationId: id, answers: z.array(checkpointSummarySchema) }),
  /** What Restore would do for an answer (files undefined: the panel closes). */
  z.object({ type: z.literal('checkpoints/plan'), answerId: id, files: z.optional(z.array(checkpointFileSchema)) }),
] as const;

/** Webview -> host. */
export const checkpointsWebviewMessages = [
  z.object({ type: z.literal('checkpoints/preview'), answerId: id }),
  z.object({ type: z.literal('checkpoints/diff'), answerId: id, path: z.string().check(z.maxLength(4096)) }),
  z.object({ type: z.literal('checkpoints/cancel'), answerId: id }),
  z.object({
    type: z.literal('checkpoints/restore'),
    answerId: id,
    /** Files changed since that the user chose to overwrite (absolute paths); others are skipped. */
    overwrite: z.array(z.string().check(z.maxLength(4096))).check(z.maxLength(10_000)),
    /** Also remove this answer and everything after it from the conversation. */
    cut: z.boolean(),
  }),
] as const;
