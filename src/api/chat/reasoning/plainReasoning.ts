// `delta.reasoning`, a plain string: vLLM's reasoning parsers and OpenRouter.
import * as z from '../../../shared/zod';

export const plainReasoning = {
  name: 'reasoning',
  shape: { reasoning: z.nullish(z.string()) },
  read: (delta: { reasoning?: string | null }): string | null | undefined => delta.reasoning,
};
