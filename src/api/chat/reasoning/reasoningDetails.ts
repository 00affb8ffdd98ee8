// `delta.reasoning_details[]`: OpenRouter's structured reasoning. It often sends `reasoning` beside
// it with the same text, so it is read only when no plain field came (see ./dialects).
import * as z from '../../../shared/zod';

const str = z.nullish(z.string());

type Detail = { type?: string | null; text?: string | null; summary?: string | null };

export const reasoningDetails = {
  name: 'reasoning_details',
  shape: { reasoning_details: z.nullish(z.array(z.object({ type: str, text: str, summary: str }))) },
  read: (delta: { reasoning_details?: readonly Detail[] | null }): string | undefined =>
    delta.reasoning_details ? detailsText(delta.reasoning_details) : undefined,
};

/** The text of the entries: `reasoning.text` pieces and `reasoning.summary` ones (encrypted entries have none). */
export function detailsText(details: readonly Detail[]): string {
  let out = '';
  for (const d of details) {
    if (d.type === 'reasoning.encrypted') continue;
    out += d.text ?? d.summary ?? '';
  }
  return out;
}
