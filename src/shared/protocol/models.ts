/** The gateway's model list as the model picker shows it. */
import * as z from '../zod';
import { errorViewSchema } from './chat';

export const modelInfoSchema = z.object({
  id: z.string(),
  ownedBy: z.optional(z.string()),
  capabilities: z.array(z.string()),
  supportsImages: z.boolean(),
  /** The reasoning effort the settings send with this model (gatewayStudio.models.overrides). */
  reasoningEffort: z.optional(z.string()),
});
export type ModelInfo = z.infer<typeof modelInfoSchema>;

/** Host -> webview. */
export const modelsHostMessages = [
  z.object({
    type: z.literal('models/list'),
    models: z.array(modelInfoSchema),
    error: z.optional(errorViewSchema),
    loading: z.boolean(),
    /** The gateway wants a key and none is set: the empty chat offers Set API Key. */
    noCredentials: z.optional(z.literal(true)),
  }),
] as const;

/** Webview -> host. */
export const modelsWebviewMessages = [z.object({ type: z.literal('models/refresh') })] as const;
