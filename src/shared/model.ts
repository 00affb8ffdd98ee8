/**
 * The model a conversation uses: its own choice, else the default (the `chatModel` setting),
 * trimmed. One rule for the host's requests, meter and compaction and for the page's model
 * picker, so the picker never names a model other than the one asked. No zod: the page bundles it.
 */
export function effectiveModel(own: string | undefined, fallback: string): string {
  return (own || fallback).trim();
}
