// `delta.reasoning_content`: DeepSeek, llama.cpp's server and the new-api/one-api relays. The
// same field goes back on tool-call turns (AssistantMessage.reasoning_content in ../wire).
import * as z from '../../../shared/zod';

export const reasoningContent = {
  name: 'reasoning_content',
  shape: { reasoning_content: z.nullish(z.string()) },
  read: (delta: { reasoning_content?: string | null }): string | null | undefined => delta.reasoning_content,
};
