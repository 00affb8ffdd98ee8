/** The system prompt and the rules files (the chips above the composer). */
import * as z from '../zod';

/** One rules file as the chips above the composer show it. */
export const ruleChipSchema = z.object({
  id: z.string(),
  /** Which list entry it comes from (src/chat/prompt/core/promptSources.ts); `nested`: below a mentioned file. */
  kind: z.enum(['agents', 'claude', 'copilot', 'instructions', 'rules', 'nested', 'setting']),
  /** Cut to the size limit: the warning names the file. */
  truncated: z.boolean(),
  /** Why a scoped or nested file applies now, in the user's words ("applies: src/a.ts was edited"). */
  why: z.optional(z.string().check(z.maxLength(500))),
  /** The user's own file (home folder, VS Code profile): sent even in Restricted Mode. */
  user: z.optional(z.boolean()),
});
export type RuleChip = z.infer<typeof ruleChipSchema>;

/** Host -> webview. */
export const promptHostMessages = [
  /** The rules files found; `blocked`: an untrusted workspace whose rules the user has not allowed. */
  z.object({
    type: z.literal('prompt/rules'),
    rules: z.array(ruleChipSchema),
    blocked: z.boolean(),
    warnings: z.array(z.string()),
  }),
] as const;

/** Webview -> host. */
export const promptWebviewMessages = [
  // The system prompt and rules (chips above the composer)
  z.object({ type: z.literal('prompt/setRuleEnabled'), id: z.string().check(z.maxLength(2000)), enabled: z.boolean() }),
  z.object({ type: z.literal('prompt/openRule'), id: z.string().check(z.maxLength(2000)) }),
  z.object({ type: z.literal('prompt/allowUntrustedRules') }),
  z.object({ type: z.literal('prompt/show') }),
] as const;
